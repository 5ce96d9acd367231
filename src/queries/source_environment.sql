-- source_environment: member, visible
select json_build_object(
  'id', "source_environment"."id",
  'name', "source_environment"."name",
  'description', "source_environment"."description",
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
    'allow_self_join', "r1"."allow_self_join") FROM "project" "r1" WHERE "r1"."id" = "source_environment"."project_id")) from "source_environment" where ("source_environment"."id" = ANY($1::int[]) and "source_environment"."organization_id" = $2::int);
