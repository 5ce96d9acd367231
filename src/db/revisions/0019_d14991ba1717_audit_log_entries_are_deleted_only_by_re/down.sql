DROP TRIGGER IF EXISTS audit_log_no_truncate ON "audit_log";
--> statement-breakpoint
DROP FUNCTION IF EXISTS muster_audit_log_no_truncate();
--> statement-breakpoint
DROP TRIGGER IF EXISTS audit_log_delete_guard ON "audit_log";
--> statement-breakpoint
DROP FUNCTION IF EXISTS muster_audit_log_delete_guard();
