-- signal_engagement: member, visible
select json_build_object(
  'id', "signal_engagement"."id",
  'name', "signal_engagement"."name",
  'description', "signal_engagement"."description",
  'require_mfa', "signal_engagement"."require_mfa",
  'entity_type', (SELECT json_build_object(
    'id', "r1"."id",
    'name', "r1"."name",
    'description', "r1"."description",
    'jpath', "r1"."jpath",
    'regular_expression', "r1"."regular_expression",
    'global_find', "r1"."global_find",
    'enabled', "r1"."enabled",
    'scope', "r1"."scope",
    'project', (SELECT json_build_object(
      'id', "r2"."id",
      'name', "r2"."name",
      'description', "r2"."description",
      'default', "r2"."default",
      'color', "r2"."color",
      'annual_employee_cost', "r2"."annual_employee_cost",
      'business_year_hours', "r2"."business_year_hours",
      'owner_email', "r2"."owner_email",
      'owner_conversation', "r2"."owner_conversation",
      'display_name', "r2"."display_name",
      'enabled', "r2"."enabled",
      'allow_self_join', "r2"."allow_self_join") FROM "project" "r2" WHERE "r2"."id" = "r1"."project_id")) FROM "entity_type" "r1" WHERE "r1"."id" = "signal_engagement"."entity_type_id"),
  'message', "signal_engagement"."message") from "signal_engagement" where ("signal_engagement"."id" = ANY($1::int[]) and "signal_engagement"."organization_id" = $2::int);
