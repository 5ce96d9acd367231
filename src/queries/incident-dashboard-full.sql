-- incident-dashboard-full: member, visible
select 
  "incident"."id" AS "id", 
  "incident"."name" AS "name", 
  "incident"."title" AS "title", 
  "incident"."status" AS "status", 
  to_char("incident"."reported_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "reported_at", 
  to_char("incident"."stable_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "stable_at", 
  to_char("incident"."closed_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "closed_at", 
  to_char("incident"."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "created_at", 
  "incident"."commanders_location" AS "commanders_location", 
  "incident"."reporters_location" AS "reporters_location", 
  "incident"."participants_location" AS "participants_location", 
  "incident"."participants_team" AS "participants_team", 
  "incident"."project_id" AS "project", 
  "incident"."incident_priority_id" AS "incident_priority", 
  "incident"."incident_severity_id" AS "incident_severity", 
  "incident"."incident_type_id" AS "incident_type" from "incident" where ("incident"."id" = ANY($1::int[]) and "incident"."organization_id" = $2::int and ("incident"."organization_id" = $3::int AND ("incident"."visibility" = 'Open' OR "incident"."id" IN (SELECT "participant"."incident_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."incident_id" IS NOT NULL AND lower("individual_contact"."email") = lower($4::text)))));
