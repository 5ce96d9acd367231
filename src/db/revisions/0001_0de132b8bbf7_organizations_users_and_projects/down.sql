DROP TABLE "app_user" CASCADE;
--> statement-breakpoint
DROP TABLE "organization" CASCADE;
--> statement-breakpoint
DROP TABLE "project" CASCADE;
--> statement-breakpoint
DROP TABLE "user_organization" CASCADE;
--> statement-breakpoint
DROP TABLE "user_project" CASCADE;
