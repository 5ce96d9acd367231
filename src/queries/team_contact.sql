-- team_contact: member, visible
select json_build_object(
  'email', "team_contact"."email",
  'name', "team_contact"."name",
  'company', "team_contact"."company",
  'contact_type', "team_contact"."contact_type",
  'notes', "team_contact"."notes",
  'owner', "team_contact"."owner",
  'is_active', "team_contact"."is_active",
  'is_external', "team_contact"."is_external",
  'evergreen', "team_contact"."evergreen",
  'evergreen_owner', "team_contact"."evergreen_owner",
  'evergreen_reminder_interval', "team_contact"."evergreen_reminder_interval",
  'evergreen_last_reminder_at', to_char("team_contact"."evergreen_last_reminder_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'filters', COALESCE((SELECT json_agg((SELECT json_build_object(
    'id', "r2"."id",
    'name', "r2"."name",
    'description', "r2"."description",
    'expression', "r2"."expression",
    'subject', "r2"."subject",
    'creator', (SELECT json_build_object('id', u."id", 'email', u."email", 'organizations', '[]'::json, 'projects', '[]'::json, 'role', NULL) FROM "app_user" u WHERE u."id" = "r2"."creator_id")) FROM "search_filter" "r2" WHERE "r2"."id" = "r1"."search_filter_id") ORDER BY "r1"."search_filter_id") FROM "team_contact_filter" "r1" WHERE "r1"."team_contact_id" = "team_contact"."id"), '[]'::json),
  'id', "team_contact"."id",
  'created_at', to_char("team_contact"."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'updated_at', to_char("team_contact"."updated_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) from "team_contact" where ("team_contact"."id" = ANY($1::int[]) and "team_contact"."organization_id" = $2::int);
