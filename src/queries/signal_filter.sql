-- signal_filter: member, visible
select json_build_object(
  'id', "signal_filter"."id",
  'name', "signal_filter"."name",
  'description', "signal_filter"."description",
  'expression', "signal_filter"."expression",
  'mode', "signal_filter"."mode",
  'action', "signal_filter"."action",
  'window', "signal_filter"."window",
  'expiration', to_char("signal_filter"."expiration" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) from "signal_filter" where ("signal_filter"."id" = ANY($1::int[]) and "signal_filter"."organization_id" = $2::int);
