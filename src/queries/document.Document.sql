-- document.Document: member, visible
select json_build_object(
  'id', "document"."id",
  'name', "document"."name",
  'description', "document"."description",
  'resource_id', "document"."resource_id",
  'resource_type', "document"."resource_type",
  'weblink', "document"."weblink") from "document" where ("document"."id" = ANY($1::int[]) and "document"."organization_id" = $2::int and ("document"."organization_id" = $3::int AND NOT EXISTS (SELECT 1 FROM "record_document" "document_owner" WHERE "document_owner"."document_id" = "document"."id"
    AND (("document_owner"."incident_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "incident" "document_incident" WHERE "document_incident"."id" = "document_owner"."incident_id" AND ("document_incident"."organization_id" = $4::int AND ("document_incident"."visibility" = 'Open' OR "document_incident"."id" IN (SELECT "participant"."incident_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."incident_id" IS NOT NULL AND lower("individual_contact"."email") = lower($5::text)))))) OR ("document_owner"."case_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "case" "document_case" WHERE "document_case"."id" = "document_owner"."case_id" AND ("document_case"."organization_id" = $6::int AND ("document_case"."visibility" = 'Open' OR "document_case"."id" IN (SELECT "participant"."case_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."case_id" IS NOT NULL AND lower("individual_contact"."email") = lower($7::text))))))))));
