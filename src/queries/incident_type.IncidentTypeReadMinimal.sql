-- incident_type.IncidentTypeReadMinimal: member, visible
select json_build_object(
  'id', "incident_type"."id",
  'name', "incident_type"."name",
  'description', "incident_type"."description",
  'visibility', "incident_type"."visibility",
  'default', "incident_type"."default",
  'enabled', "incident_type"."enabled",
  'exclude_from_metrics', "incident_type"."exclude_from_metrics",
  'plugin_metadata', "incident_type"."plugin_metadata") from "incident_type" where ("incident_type"."id" = ANY($1::int[]) and "incident_type"."organization_id" = $2::int);
