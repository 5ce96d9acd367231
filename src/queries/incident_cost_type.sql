-- incident_cost_type: member, visible
select json_build_object(
  'id', "incident_cost_type"."id",
  'name', "incident_cost_type"."name",
  'description', "incident_cost_type"."description",
  'category', "incident_cost_type"."category",
  'details', "incident_cost_type"."details",
  'default', "incident_cost_type"."default",
  'editable', "incident_cost_type"."editable",
  'created_at', to_char("incident_cost_type"."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) from "incident_cost_type" where ("incident_cost_type"."id" = ANY($1::int[]) and "incident_cost_type"."organization_id" = $2::int);
