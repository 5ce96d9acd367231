-- search_filter: member, visible
select json_build_object(
  'id', "search_filter"."id",
  'name', "search_filter"."name",
  'description', "search_filter"."description",
  'expression', "search_filter"."expression",
  'subject', "search_filter"."subject",
  'creator', (SELECT json_build_object('id', u."id", 'email', u."email", 'organizations', '[]'::json, 'projects', '[]'::json, 'role', NULL) FROM "app_user" u WHERE u."id" = "search_filter"."creator_id"),
  'individuals', COALESCE((SELECT json_agg(json_build_object(
    'id', "r1"."id",
    'name', "r1"."name",
    'email', "r1"."email") ORDER BY "r1"."id") FROM "individual_contact_filter" "individual_contact_filter_of" JOIN "individual_contact" "r1" ON "r1"."id" = "individual_contact_filter_of"."individual_contact_id" WHERE "individual_contact_filter_of"."search_filter_id" = "search_filter"."id"), '[]'::json),
  'teams', COALESCE((SELECT json_agg(json_build_object(
    'id', "r2"."id",
    'name', "r2"."name") ORDER BY "r2"."id") FROM "team_contact_filter" "team_contact_filter_of" JOIN "team_contact" "r2" ON "r2"."id" = "team_contact_filter_of"."team_contact_id" WHERE "team_contact_filter_of"."search_filter_id" = "search_filter"."id"), '[]'::json),
  'services', COALESCE((SELECT json_agg(json_build_object(
    'id', "r3"."id",
    'name', "r3"."name") ORDER BY "r3"."id") FROM "service_filter" "service_filter_of" JOIN "service" "r3" ON "r3"."id" = "service_filter_of"."service_id" WHERE "service_filter_of"."search_filter_id" = "search_filter"."id"), '[]'::json),
  'notifications', COALESCE((SELECT json_agg(json_build_object(
    'id', "r4"."id",
    'name', "r4"."name") ORDER BY "r4"."id") FROM "notification_filter" "notification_filter_of" JOIN "notification" "r4" ON "r4"."id" = "notification_filter_of"."notification_id" WHERE "notification_filter_of"."search_filter_id" = "search_filter"."id"), '[]'::json)) from "search_filter" where ("search_filter"."id" = ANY($1::int[]) and "search_filter"."organization_id" = $2::int);
