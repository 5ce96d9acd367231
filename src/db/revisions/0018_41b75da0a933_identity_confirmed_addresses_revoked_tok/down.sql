DROP TRIGGER IF EXISTS audit_log_append_only ON "audit_log";
--> statement-breakpoint
DROP FUNCTION IF EXISTS muster_audit_log_append_only();
--> statement-breakpoint
DROP TABLE "api_token" CASCADE;
--> statement-breakpoint
DROP TABLE "audit_log" CASCADE;
--> statement-breakpoint
DROP TABLE "email_link" CASCADE;
--> statement-breakpoint
ALTER TABLE "app_user" DROP COLUMN "email_confirmed_at";
--> statement-breakpoint
ALTER TABLE "app_user" DROP COLUMN "tokens_valid_after";
--> statement-breakpoint
ALTER TABLE "app_user" DROP COLUMN "deactivated_at";
--> statement-breakpoint
ALTER TABLE "app_user" DROP COLUMN "service_account";
--> statement-breakpoint
ALTER TABLE "organization" DROP COLUMN "password_login";
