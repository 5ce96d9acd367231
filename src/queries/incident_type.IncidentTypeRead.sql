-- incident_type.IncidentTypeRead: member, visible
select json_build_object(
  'id', "incident_type"."id",
  'name', "incident_type"."name",
  'description', "incident_type"."description",
  'visibility', "incident_type"."visibility",
  'default', "incident_type"."default",
  'enabled', "incident_type"."enabled",
  'exclude_from_metrics', "incident_type"."exclude_from_metrics",
  'plugin_metadata', "incident_type"."plugin_metadata",
  'incident_template_document', (SELECT json_build_object(
    'id', "r1"."id",
    'name', "r1"."name",
    'description', "r1"."description",
    'resource_id', "r1"."resource_id",
    'resource_type', "r1"."resource_type",
    'weblink', "r1"."weblink") FROM "document" "r1" WHERE ("r1"."id" = "incident_type"."incident_template_document_id" and ("r1"."organization_id" = $1::int AND NOT EXISTS (SELECT 1 FROM "record_document" "document_owner" WHERE "document_owner"."document_id" = "r1"."id"
    AND (("document_owner"."incident_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "incident" "document_incident" WHERE "document_incident"."id" = "document_owner"."incident_id" AND ("document_incident"."organization_id" = $2::int AND ("document_incident"."visibility" = 'Open' OR "document_incident"."id" IN (SELECT "participant"."incident_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."incident_id" IS NOT NULL AND lower("individual_contact"."email") = lower($3::text)))))) OR ("document_owner"."case_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "case" "document_case" WHERE "document_case"."id" = "document_owner"."case_id" AND ("document_case"."organization_id" = $4::int AND ("document_case"."visibility" = 'Open' OR "document_case"."id" IN (SELECT "participant"."case_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."case_id" IS NOT NULL AND lower("individual_contact"."email") = lower($5::text))))))))))),
  'executive_template_document', (SELECT json_build_object(
    'id', "r2"."id",
    'name', "r2"."name",
    'description', "r2"."description",
    'resource_id', "r2"."resource_id",
    'resource_type', "r2"."resource_type",
    'weblink', "r2"."weblink") FROM "document" "r2" WHERE ("r2"."id" = "incident_type"."executive_template_document_id" and ("r2"."organization_id" = $6::int AND NOT EXISTS (SELECT 1 FROM "record_document" "document_owner" WHERE "document_owner"."document_id" = "r2"."id"
    AND (("document_owner"."incident_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "incident" "document_incident" WHERE "document_incident"."id" = "document_owner"."incident_id" AND ("document_incident"."organization_id" = $7::int AND ("document_incident"."visibility" = 'Open' OR "document_incident"."id" IN (SELECT "participant"."incident_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."incident_id" IS NOT NULL AND lower("individual_contact"."email") = lower($8::text)))))) OR ("document_owner"."case_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "case" "document_case" WHERE "document_case"."id" = "document_owner"."case_id" AND ("document_case"."organization_id" = $9::int AND ("document_case"."visibility" = 'Open' OR "document_case"."id" IN (SELECT "participant"."case_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."case_id" IS NOT NULL AND lower("individual_contact"."email") = lower($10::text))))))))))),
  'review_template_document', (SELECT json_build_object(
    'id', "r3"."id",
    'name', "r3"."name",
    'description', "r3"."description",
    'resource_id', "r3"."resource_id",
    'resource_type', "r3"."resource_type",
    'weblink', "r3"."weblink") FROM "document" "r3" WHERE ("r3"."id" = "incident_type"."review_template_document_id" and ("r3"."organization_id" = $11::int AND NOT EXISTS (SELECT 1 FROM "record_document" "document_owner" WHERE "document_owner"."document_id" = "r3"."id"
    AND (("document_owner"."incident_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "incident" "document_incident" WHERE "document_incident"."id" = "document_owner"."incident_id" AND ("document_incident"."organization_id" = $12::int AND ("document_incident"."visibility" = 'Open' OR "document_incident"."id" IN (SELECT "participant"."incident_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."incident_id" IS NOT NULL AND lower("individual_contact"."email") = lower($13::text)))))) OR ("document_owner"."case_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "case" "document_case" WHERE "document_case"."id" = "document_owner"."case_id" AND ("document_case"."organization_id" = $14::int AND ("document_case"."visibility" = 'Open' OR "document_case"."id" IN (SELECT "participant"."case_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."case_id" IS NOT NULL AND lower("individual_contact"."email") = lower($15::text))))))))))),
  'tracking_template_document', (SELECT json_build_object(
    'id', "r4"."id",
    'name', "r4"."name",
    'description', "r4"."description",
    'resource_id', "r4"."resource_id",
    'resource_type', "r4"."resource_type",
    'weblink', "r4"."weblink") FROM "document" "r4" WHERE ("r4"."id" = "incident_type"."tracking_template_document_id" and ("r4"."organization_id" = $16::int AND NOT EXISTS (SELECT 1 FROM "record_document" "document_owner" WHERE "document_owner"."document_id" = "r4"."id"
    AND (("document_owner"."incident_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "incident" "document_incident" WHERE "document_incident"."id" = "document_owner"."incident_id" AND ("document_incident"."organization_id" = $17::int AND ("document_incident"."visibility" = 'Open' OR "document_incident"."id" IN (SELECT "participant"."incident_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."incident_id" IS NOT NULL AND lower("individual_contact"."email") = lower($18::text)))))) OR ("document_owner"."case_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "case" "document_case" WHERE "document_case"."id" = "document_owner"."case_id" AND ("document_case"."organization_id" = $19::int AND ("document_case"."visibility" = 'Open' OR "document_case"."id" IN (SELECT "participant"."case_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."case_id" IS NOT NULL AND lower("individual_contact"."email") = lower($20::text))))))))))),
  'project', (SELECT json_build_object(
    'id', "r5"."id",
    'name', "r5"."name",
    'description', "r5"."description",
    'default', "r5"."default",
    'color', "r5"."color",
    'annual_employee_cost', "r5"."annual_employee_cost",
    'business_year_hours', "r5"."business_year_hours",
    'owner_email', "r5"."owner_email",
    'owner_conversation', "r5"."owner_conversation",
    'display_name', "r5"."display_name",
    'enabled', "r5"."enabled",
    'allow_self_join', "r5"."allow_self_join") FROM "project" "r5" WHERE "r5"."id" = "incident_type"."project_id")) from "incident_type" where ("incident_type"."id" = ANY($21::int[]) and "incident_type"."organization_id" = $22::int);
