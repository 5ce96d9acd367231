-- case_priority: member, visible
select json_build_object(
  'id', "case_priority"."id",
  'name', "case_priority"."name",
  'description', "case_priority"."description",
  'color', "case_priority"."color",
  'default', "case_priority"."default",
  'enabled', "case_priority"."enabled",
  'view_order', "case_priority"."view_order",
  'page_assignee', "case_priority"."page_assignee",
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
    'allow_self_join', "r1"."allow_self_join") FROM "project" "r1" WHERE "r1"."id" = "case_priority"."project_id")) from "case_priority" where ("case_priority"."id" = ANY($1::int[]) and "case_priority"."organization_id" = $2::int);
