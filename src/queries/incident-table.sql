-- incident-table: member, visible
select 
  "incident"."id" AS "id", 
  "incident"."name" AS "name", 
  "incident"."title" AS "title", 
  "incident"."status" AS "status", 
  "incident"."visibility" AS "visibility", 
  to_char("incident"."reported_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "reported_at", 
  to_char("incident"."stable_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "stable_at", 
  to_char("incident"."closed_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "closed_at", 
  to_json((SELECT json_build_object(
    'id', "r1"."id",
    'name', "r1"."name",
    'color', "r1"."color",
    'display_name', "r1"."display_name",
    'enabled', "r1"."enabled",
    'allow_self_join', "r1"."allow_self_join") FROM "project" "r1" WHERE "r1"."id" = "incident"."project_id")) AS "project", 
  to_json((SELECT json_build_object(
    'name', "r2"."name",
    'id', "r2"."id") FROM "incident_priority" "r2" WHERE "r2"."id" = "incident"."incident_priority_id")) AS "incident_priority", 
  to_json((SELECT json_build_object(
    'name', "r3"."name",
    'id', "r3"."id") FROM "incident_severity" "r3" WHERE "r3"."id" = "incident"."incident_severity_id")) AS "incident_severity", 
  to_json((SELECT json_build_object(
    'individual', (SELECT json_build_object(
      'email', "r5"."email",
      'id', "r5"."id") FROM "individual_contact" "r5" WHERE "r5"."id" = "r4"."individual_contact_id"),
    'id', "r4"."id") FROM "participant" "r4" WHERE "r4"."id" = "incident"."commander_id")) AS "commander", 
  to_json(to_char(GREATEST(
    (SELECT max(r."created_at") FROM "report" r WHERE r."incident_id" = "incident"."id"),
    (SELECT max(e."started_at") FROM "event" e WHERE e."incident_id" = "incident"."id" AND e."type" IN ('Custom event', 'Imported message'))
  ) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) AS "last_update_at" from "incident" where ("incident"."id" = ANY($1::int[]) and "incident"."organization_id" = $2::int and ("incident"."organization_id" = $3::int AND ("incident"."visibility" = 'Open' OR "incident"."id" IN (SELECT "participant"."incident_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."incident_id" IS NOT NULL AND lower("individual_contact"."email") = lower($4::text)))));
