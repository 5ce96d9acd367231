ALTER TABLE "cost_model" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "cost_model_activity" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "plugin_event" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "signal_engagement" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP TABLE "cost_model" CASCADE;
--> statement-breakpoint
DROP TABLE "cost_model_activity" CASCADE;
--> statement-breakpoint
DROP TABLE "plugin_event" CASCADE;
--> statement-breakpoint
DROP TABLE "signal_engagement" CASCADE;
--> statement-breakpoint
ALTER TABLE "case_type" DROP CONSTRAINT IF EXISTS "case_type_cost_model_id_cost_model_id_fk";
--> statement-breakpoint
ALTER TABLE "incident_type" DROP CONSTRAINT IF EXISTS "incident_type_cost_model_id_cost_model_id_fk";
--> statement-breakpoint
ALTER TABLE "case_type" DROP COLUMN "cost_model_id";
--> statement-breakpoint
ALTER TABLE "incident_type" DROP COLUMN "cost_model_id";
