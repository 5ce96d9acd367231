-- case-table: member, visible
select 
  "case"."id" AS "id", 
  "case"."name" AS "name", 
  "case"."title" AS "title", 
  "case"."status" AS "status", 
  "case"."visibility" AS "visibility", 
  to_char("case"."reported_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "reported_at", 
  to_json((SELECT json_build_object(
    'name', "r1"."name",
    'id', "r1"."id") FROM "case_priority" "r1" WHERE "r1"."id" = "case"."case_priority_id")) AS "case_priority", 
  to_json((SELECT json_build_object(
    'name', "r2"."name",
    'id', "r2"."id") FROM "case_severity" "r2" WHERE "r2"."id" = "case"."case_severity_id")) AS "case_severity", 
  to_json((SELECT json_build_object(
    'name', "r3"."name",
    'id', "r3"."id") FROM "case_type" "r3" WHERE "r3"."id" = "case"."case_type_id")) AS "case_type", 
  to_json((SELECT json_build_object(
    'id', "r4"."id",
    'name', "r4"."name",
    'color', "r4"."color",
    'display_name', "r4"."display_name",
    'enabled', "r4"."enabled",
    'allow_self_join', "r4"."allow_self_join") FROM "project" "r4" WHERE "r4"."id" = "case"."project_id")) AS "project", 
  to_json((SELECT json_build_object(
    'individual', (SELECT json_build_object(
      'email', "r6"."email",
      'id', "r6"."id") FROM "individual_contact" "r6" WHERE "r6"."id" = "r5"."individual_contact_id"),
    'id', "r5"."id") FROM "participant" "r5" WHERE "r5"."id" = "case"."assignee_id")) AS "assignee" from "case" where ("case"."id" = ANY($1::int[]) and "case"."organization_id" = $2::int and ("case"."organization_id" = $3::int AND ("case"."visibility" = 'Open' OR "case"."id" IN (SELECT "participant"."case_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."case_id" IS NOT NULL AND lower("individual_contact"."email") = lower($4::text)))));
