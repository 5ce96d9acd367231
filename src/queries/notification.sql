-- notification: member, visible
select json_build_object(
  'id', "notification"."id",
  'name', "notification"."name",
  'description', "notification"."description",
  'type', "notification"."type",
  'target', "notification"."target",
  'enabled', "notification"."enabled",
  'evergreen', "notification"."evergreen",
  'evergreen_owner', "notification"."evergreen_owner",
  'evergreen_reminder_interval', "notification"."evergreen_reminder_interval",
  'evergreen_last_reminder_at', to_char("notification"."evergreen_last_reminder_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'filters', COALESCE((SELECT json_agg((SELECT json_build_object(
    'id', "r2"."id",
    'name', "r2"."name",
    'description', "r2"."description",
    'expression', "r2"."expression",
    'subject', "r2"."subject",
    'creator', (SELECT json_build_object('id', u."id", 'email', u."email", 'organizations', '[]'::json, 'projects', '[]'::json, 'role', NULL) FROM "app_user" u WHERE u."id" = "r2"."creator_id")) FROM "search_filter" "r2" WHERE "r2"."id" = "r1"."search_filter_id") ORDER BY "r1"."search_filter_id") FROM "notification_filter" "r1" WHERE "r1"."notification_id" = "notification"."id"), '[]'::json),
  'created_at', to_char("notification"."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'updated_at', to_char("notification"."updated_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) from "notification" where ("notification"."id" = ANY($1::int[]) and "notification"."organization_id" = $2::int);
