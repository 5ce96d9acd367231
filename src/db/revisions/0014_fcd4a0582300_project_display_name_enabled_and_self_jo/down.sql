ALTER TABLE "entity_type" DROP COLUMN "scope";
--> statement-breakpoint
ALTER TABLE "project" DROP COLUMN "display_name";
--> statement-breakpoint
ALTER TABLE "project" DROP COLUMN "enabled";
--> statement-breakpoint
ALTER TABLE "project" DROP COLUMN "allow_self_join";
--> statement-breakpoint
ALTER TABLE "tag_type" DROP COLUMN "discoverable_incident";
--> statement-breakpoint
ALTER TABLE "tag_type" DROP COLUMN "discoverable_case";
--> statement-breakpoint
ALTER TABLE "tag_type" DROP COLUMN "discoverable_signal";
--> statement-breakpoint
ALTER TABLE "tag_type" DROP COLUMN "discoverable_query";
--> statement-breakpoint
ALTER TABLE "tag_type" DROP COLUMN "discoverable_source";
--> statement-breakpoint
ALTER TABLE "tag_type" DROP COLUMN "discoverable_document";
