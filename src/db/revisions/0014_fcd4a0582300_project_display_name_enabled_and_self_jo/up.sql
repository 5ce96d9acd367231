ALTER TABLE "entity_type" ADD COLUMN "scope" text DEFAULT 'single' NOT NULL;
--> statement-breakpoint
ALTER TABLE "project" ADD COLUMN "display_name" text DEFAULT '' NOT NULL;
--> statement-breakpoint
ALTER TABLE "project" ADD COLUMN "enabled" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "project" ADD COLUMN "allow_self_join" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "tag_type" ADD COLUMN "discoverable_incident" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "tag_type" ADD COLUMN "discoverable_case" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "tag_type" ADD COLUMN "discoverable_signal" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "tag_type" ADD COLUMN "discoverable_query" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "tag_type" ADD COLUMN "discoverable_source" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
ALTER TABLE "tag_type" ADD COLUMN "discoverable_document" boolean DEFAULT true NOT NULL;
--> statement-breakpoint
-- Hand-written:
-- Projects that existed before display names show their name, as new ones do when created without one.
UPDATE "project" SET "display_name" = "name" WHERE "display_name" = '';
