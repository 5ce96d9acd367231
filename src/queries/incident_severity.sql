-- incident_severity: member, visible
select json_build_object(
  'id', "incident_severity"."id",
  'name', "incident_severity"."name",
  'description', "incident_severity"."description",
  'color', "incident_severity"."color",
  'default', "incident_severity"."default",
  'enabled', "incident_severity"."enabled",
  'view_order', "incident_severity"."view_order",
  'project', (SELECT json_build_object(
    'id', "r1"."id",
    'name', "r1"."name",
    'description', "r1"."description",
    'default', "r1"."default",
    'color', "r1"."color",
    'annual_employee_cost', "r1"."annual_employee_cost",
    'business_year_hours', "r1"."business_year_hours",
    'owner_email', "r1"."owner_email",
    'owner_conversation', "r1"."owner_conversation",
    'display_name', "r1"."display_name",
    'enabled', "r1"."enabled",
    'allow_self_join', "r1"."allow_self_join") FROM "project" "r1" WHERE "r1"."id" = "incident_severity"."project_id")) from "incident_severity" where ("incident_severity"."id" = ANY($1::int[]) and "incident_severity"."organization_id" = $2::int);
