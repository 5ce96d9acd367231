-- entity_type: member, visible
select json_build_object(
  'id', "entity_type"."id",
  'name', "entity_type"."name",
  'description', "entity_type"."description",
  'jpath', "entity_type"."jpath",
  'regular_expression', "entity_type"."regular_expression",
  'global_find', "entity_type"."global_find",
  'enabled', "entity_type"."enabled",
  'scope', "entity_type"."scope",
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
    'allow_self_join', "r1"."allow_self_join") FROM "project" "r1" WHERE "r1"."id" = "entity_type"."project_id")) from "entity_type" where ("entity_type"."id" = ANY($1::int[]) and "entity_type"."organization_id" = $2::int);
