DROP TABLE "invitation" CASCADE;
--> statement-breakpoint
DROP TABLE "login_failure" CASCADE;
--> statement-breakpoint
ALTER TABLE "organization" DROP COLUMN "registration";
--> statement-breakpoint
ALTER TABLE "organization" DROP COLUMN "registration_domains";
