-- hand-written
DROP TRIGGER IF EXISTS "incident_list_changed" ON "incident"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "case_list_changed" ON "case"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "participant_list_changed" ON "participant"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "individual_contact_list_changed" ON "individual_contact"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "project_list_changed" ON "project"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "incident_priority_list_changed" ON "incident_priority"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "incident_severity_list_changed" ON "incident_severity"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "incident_type_list_changed" ON "incident_type"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "case_priority_list_changed" ON "case_priority"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "case_severity_list_changed" ON "case_severity"
--> statement-breakpoint
DROP TRIGGER IF EXISTS "case_type_list_changed" ON "case_type"
--> statement-breakpoint
DROP FUNCTION IF EXISTS muster_list_changed()
--> statement-breakpoint
DROP TABLE IF EXISTS "muster_list_change"
--> statement-breakpoint
DROP TABLE IF EXISTS "muster_list_version"
