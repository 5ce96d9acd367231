-- incident.WorkflowIncident: member, visible
select json_build_object(
  'id', "incident"."id",
  'name', "incident"."name") from "incident" where ("incident"."id" = ANY($1::int[]) and "incident"."organization_id" = $2::int and ("incident"."organization_id" = $3::int AND ("incident"."visibility" = 'Open' OR "incident"."id" IN (SELECT "participant"."incident_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."incident_id" IS NOT NULL AND lower("individual_contact"."email") = lower($4::text)))));
