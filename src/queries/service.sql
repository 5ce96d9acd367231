-- service: member, visible
select json_build_object(
  'id', "service"."id",
  'name', "service"."name",
  'description', "service"."description",
  'external_id', "service"."external_id",
  'type', "service"."type",
  'is_active', "service"."is_active",
  'evergreen', "service"."evergreen",
  'evergreen_owner', "service"."evergreen_owner",
  'evergreen_reminder_interval', "service"."evergreen_reminder_interval",
  'evergreen_last_reminder_at', to_char("service"."evergreen_last_reminder_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'filters', COALESCE((SELECT json_agg((SELECT json_build_object(
    'id', "r2"."id",
    'name', "r2"."name",
    'description', "r2"."description",
    'expression', "r2"."expression",
    'subject', "r2"."subject",
    'creator', (SELECT json_build_object('id', u."id", 'email', u."email", 'organizations', '[]'::json, 'projects', '[]'::json, 'role', NULL) FROM "app_user" u WHERE u."id" = "r2"."creator_id")) FROM "search_filter" "r2" WHERE "r2"."id" = "r1"."search_filter_id") ORDER BY "r1"."search_filter_id") FROM "service_filter" "r1" WHERE "r1"."service_id" = "service"."id"), '[]'::json),
  'created_at', to_char("service"."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'updated_at', to_char("service"."updated_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) from "service" where ("service"."id" = ANY($1::int[]) and "service"."organization_id" = $2::int);
