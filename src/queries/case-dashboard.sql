-- case-dashboard: member, visible
select json_build_object(
  'id', "case"."id",
  'name', "case"."name",
  'title', "case"."title",
  'status', "case"."status",
  'reported_at', to_char("case"."reported_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'triage_at', to_char("case"."triage_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'escalated_at', to_char("case"."escalated_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'closed_at', to_char("case"."closed_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'created_at', to_char("case"."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'case_priority', "case"."case_priority_id",
  'case_severity', "case"."case_severity_id",
  'case_type', "case"."case_type_id",
  'project', "case"."project_id",
  'stable_at', to_char("case"."stable_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')) from "case" where ("case"."id" = ANY($1::int[]) and "case"."organization_id" = $2::int and ("case"."organization_id" = $3::int AND ("case"."visibility" = 'Open' OR "case"."id" IN (SELECT "participant"."case_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."case_id" IS NOT NULL AND lower("individual_contact"."email") = lower($4::text)))));
