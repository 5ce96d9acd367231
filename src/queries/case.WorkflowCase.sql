-- case.WorkflowCase: member, visible
select json_build_object(
  'id', "case"."id",
  'name', "case"."name") from "case" where ("case"."id" = ANY($1::int[]) and "case"."organization_id" = $2::int and ("case"."organization_id" = $3::int AND ("case"."visibility" = 'Open' OR "case"."id" IN (SELECT "participant"."case_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."case_id" IS NOT NULL AND lower("individual_contact"."email") = lower($4::text)))));
