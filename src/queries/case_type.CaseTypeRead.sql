-- case_type.CaseTypeRead: member, visible
select json_build_object(
  'id', "case_type"."id",
  'name', "case_type"."name",
  'description', "case_type"."description",
  'visibility', "case_type"."visibility",
  'default', "case_type"."default",
  'enabled', "case_type"."enabled",
  'exclude_from_metrics', "case_type"."exclude_from_metrics",
  'plugin_metadata', "case_type"."plugin_metadata",
  'conversation_target', "case_type"."conversation_target",
  'case_template_document', (SELECT json_build_object(
    'id', "r1"."id",
    'name', "r1"."name",
    'description', "r1"."description",
    'resource_id', "r1"."resource_id",
    'resource_type', "r1"."resource_type",
    'weblink', "r1"."weblink") FROM "document" "r1" WHERE ("r1"."id" = "case_type"."case_template_document_id" and ("r1"."organization_id" = $1::int AND NOT EXISTS (SELECT 1 FROM "record_document" "document_owner" WHERE "document_owner"."document_id" = "r1"."id"
    AND (("document_owner"."incident_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "incident" "document_incident" WHERE "document_incident"."id" = "document_owner"."incident_id" AND ("document_incident"."organization_id" = $2::int AND ("document_incident"."visibility" = 'Open' OR "document_incident"."id" IN (SELECT "participant"."incident_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."incident_id" IS NOT NULL AND lower("individual_contact"."email") = lower($3::text)))))) OR ("document_owner"."case_id" IS NOT NULL AND NOT EXISTS (SELECT 1 FROM "case" "document_case" WHERE "document_case"."id" = "document_owner"."case_id" AND ("document_case"."organization_id" = $4::int AND ("document_case"."visibility" = 'Open' OR "document_case"."id" IN (SELECT "participant"."case_id" FROM "participant" JOIN "individual_contact" ON "individual_contact"."id" = "participant"."individual_contact_id" WHERE "participant"."case_id" IS NOT NULL AND lower("individual_contact"."email") = lower($5::text))))))))))),
  'incident_type', (SELECT json_build_object(
    'id', "r2"."id",
    'name', "r2"."name",
    'description', "r2"."description",
    'visibility', "r2"."visibility") FROM "incident_type" "r2" WHERE "r2"."id" = "case_type"."incident_type_id"),
  'oncall_service', (SELECT json_build_object(
    'id', "r3"."id",
    'name', "r3"."name",
    'external_id', "r3"."external_id",
    'is_active', "r3"."is_active",
    'type', "r3"."type",
    'description', "r3"."description") FROM "service" "r3" WHERE "r3"."id" = "case_type"."oncall_service_id"),
  'project', (SELECT json_build_object(
    'id', "r4"."id",
    'name', "r4"."name",
    'description', "r4"."description",
    'default', "r4"."default",
    'color', "r4"."color",
    'annual_employee_cost', "r4"."annual_employee_cost",
    'business_year_hours', "r4"."business_year_hours",
    'owner_email', "r4"."owner_email",
    'owner_conversation', "r4"."owner_conversation",
    'display_name', "r4"."display_name",
    'enabled', "r4"."enabled",
    'allow_self_join', "r4"."allow_self_join") FROM "project" "r4" WHERE "r4"."id" = "case_type"."project_id")) from "case_type" where ("case_type"."id" = ANY($6::int[]) and "case_type"."organization_id" = $7::int);
