DROP TABLE "plugin" CASCADE;
--> statement-breakpoint
DROP TABLE "plugin_instance" CASCADE;
--> statement-breakpoint
DROP TABLE "workflow" CASCADE;
--> statement-breakpoint
DROP TABLE "workflow_instance" CASCADE;
--> statement-breakpoint
DROP TABLE "workflow_instance_artifact" CASCADE;
