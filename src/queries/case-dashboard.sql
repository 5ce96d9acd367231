-- case-dashboard: member, visible
select 
  "case"."id" AS "id", 
  "case"."name" AS "name", 
  "case"."title" AS "title", 
  "case"."status" AS "status", 
  to_char("case"."reported_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "reported_at", 
  to_char("case"."triage_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "triage_at", 
  to_char("case"."escalated_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "escalated_at", 
  to_char("case"."closed_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "closed_at", 
  to_char("case"."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "created_at", 
  "case"."case_priority_id" AS "case_priority", 
  "case"."case_severity_id" AS "case_severity", 
  "case"."case_type_id" AS "case_type", 
  "case"."project_id" AS "project", 
  to_char("case"."stable_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') AS "stable_at" from "case" where ("case"."id" = ANY($1::int[]) and "case"."organization_id" = $2::int and ("case"."organization_id" = $3::int AND ("case"."visibility" = 'Open' OR "case"."id" IN (SELECT "participant"."case_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."case_id" IS NOT NULL AND lower("individual_contact"."email") = lower($4::text)))));
