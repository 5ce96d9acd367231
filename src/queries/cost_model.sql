-- cost_model: member, visible
select json_build_object(
  'id', "cost_model"."id",
  'name', "cost_model"."name",
  'description', "cost_model"."description",
  'enabled', "cost_model"."enabled",
  'created_at', to_char("cost_model"."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'updated_at', to_char("cost_model"."updated_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
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
    'allow_self_join', "r1"."allow_self_join") FROM "project" "r1" WHERE "r1"."id" = "cost_model"."project_id"),
  'activities', COALESCE((SELECT json_agg(json_build_object(
    'id', "r2"."id",
    'plugin_event', "r2"."plugin_event_id",
    'response_time_seconds', "r2"."response_time_seconds",
    'enabled', "r2"."enabled") ORDER BY "r2"."id") FROM "cost_model_activity" "r2" WHERE "r2"."cost_model_id" = "cost_model"."id"), '[]'::json)) from "cost_model" where ("cost_model"."id" = ANY($1::int[]) and "cost_model"."organization_id" = $2::int);
