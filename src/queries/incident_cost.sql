-- incident_cost: member, visible
select json_build_object(
  'id', "incident_cost"."id",
  'amount', "incident_cost"."amount",
  'incident_cost_type', (SELECT json_build_object(
    'id', "r1"."id",
    'name', "r1"."name",
    'description', "r1"."description",
    'category', "r1"."category",
    'details', "r1"."details",
    'default', "r1"."default",
    'editable', "r1"."editable",
    'created_at', to_char("r1"."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) FROM "incident_cost_type" "r1" WHERE "r1"."id" = "incident_cost"."incident_cost_type_id")) from "incident_cost" where ("incident_cost"."id" = ANY($1::int[]) and "incident_cost"."organization_id" = $2::int);
