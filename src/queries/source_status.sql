-- source_status: member, visible
select json_build_object(
  'id', "source_status"."id",
  'name', "source_status"."name",
  'description', "source_status"."description",
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
    'allow_self_join', "r1"."allow_self_join") FROM "project" "r1" WHERE "r1"."id" = "source_status"."project_id")) from "source_status" where ("source_status"."id" = ANY($1::int[]) and "source_status"."organization_id" = $2::int);
