-- incident_priority.IncidentPriorityReadMinimal: member, visible
select json_build_object(
  'id', "incident_priority"."id",
  'name', "incident_priority"."name",
  'description', "incident_priority"."description",
  'color', "incident_priority"."color",
  'default', "incident_priority"."default",
  'enabled', "incident_priority"."enabled",
  'view_order', "incident_priority"."view_order",
  'page_commander', "incident_priority"."page_commander",
  'tactical_report_reminder', "incident_priority"."tactical_report_reminder",
  'executive_report_reminder', "incident_priority"."executive_report_reminder") from "incident_priority" where ("incident_priority"."id" = ANY($1::int[]) and "incident_priority"."organization_id" = $2::int);
