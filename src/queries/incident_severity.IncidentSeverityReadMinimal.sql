-- incident_severity.IncidentSeverityReadMinimal: member, visible
select json_build_object(
  'id', "incident_severity"."id",
  'name', "incident_severity"."name",
  'description', "incident_severity"."description",
  'color', "incident_severity"."color",
  'default', "incident_severity"."default",
  'enabled', "incident_severity"."enabled",
  'view_order', "incident_severity"."view_order") from "incident_severity" where ("incident_severity"."id" = ANY($1::int[]) and "incident_severity"."organization_id" = $2::int);
