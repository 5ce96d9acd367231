-- hand-written
DROP TRIGGER IF EXISTS "case_incident_list_changed" ON "case_incident"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "case_related_list_changed" ON "case_related"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "case_duplicate_list_changed" ON "case_duplicate"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "case_tag_list_changed" ON "case_tag"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "record_document_list_changed" ON "record_document"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "document_list_changed" ON "document"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "participant_role_list_changed" ON "participant_role"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "tag_type_list_changed" ON "tag_type"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "tag_list_changed" ON "tag"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "incident_cost_type_list_changed" ON "incident_cost_type"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "incident_cost_list_changed" ON "incident_cost"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "incident_duplicate_list_changed" ON "incident_duplicate"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "incident_tag_list_changed" ON "incident_tag"
