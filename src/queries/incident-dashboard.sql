-- incident-dashboard: member, visible
select json_build_object(
  'id', "incident"."id",
  'name', "incident"."name",
  'title', "incident"."title",
  'status', "incident"."status",
  'reported_at', to_char("incident"."reported_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'stable_at', to_char("incident"."stable_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'closed_at', to_char("incident"."closed_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'created_at', to_char("incident"."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  'commanders_location', "incident"."commanders_location",
  'reporters_location', "incident"."reporters_location",
  'participants_location', "incident"."participants_location",
  'participants_team', "incident"."participants_team",
  'total_cost', (SELECT COALESCE(sum(c."amount" ORDER BY c."id"), 0) FROM "incident_cost" c WHERE c."incident_id" = "incident"."id"),
  'project', "incident"."project_id",
  'incident_priority', "incident"."incident_priority_id",
  'incident_severity', "incident"."incident_severity_id",
  'incident_type', "incident"."incident_type_id") from "incident" where ("incident"."id" = ANY($1::int[]) and "incident"."organization_id" = $2::int and ("incident"."organization_id" = $3::int AND ("incident"."visibility" = 'Open' OR "incident"."id" IN (SELECT "participant"."incident_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."incident_id" IS NOT NULL AND lower("individual_contact"."email") = lower($4::text)))));
