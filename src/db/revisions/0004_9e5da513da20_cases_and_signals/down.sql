ALTER TABLE "case_duplicate" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "case_incident" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "case_related" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "case" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "case_tag" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "signal" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "signal_entity_type" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "signal_filter" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "signal_filter_link" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "signal_instance" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "signal_instance_entity" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "signal_tag" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP TABLE "case_duplicate" CASCADE;
--> statement-breakpoint
DROP TABLE "case_incident" CASCADE;
--> statement-breakpoint
DROP TABLE "case_related" CASCADE;
--> statement-breakpoint
DROP TABLE "case" CASCADE;
--> statement-breakpoint
DROP TABLE "case_tag" CASCADE;
--> statement-breakpoint
DROP TABLE "signal" CASCADE;
--> statement-breakpoint
DROP TABLE "signal_entity_type" CASCADE;
--> statement-breakpoint
DROP TABLE "signal_filter" CASCADE;
--> statement-breakpoint
DROP TABLE "signal_filter_link" CASCADE;
--> statement-breakpoint
DROP TABLE "signal_instance" CASCADE;
--> statement-breakpoint
DROP TABLE "signal_instance_entity" CASCADE;
--> statement-breakpoint
DROP TABLE "signal_tag" CASCADE;
--> statement-breakpoint
ALTER TABLE "event" DROP CONSTRAINT IF EXISTS "event_case_id_case_id_fk";
--> statement-breakpoint
ALTER TABLE "participant" DROP CONSTRAINT IF EXISTS "participant_case_id_case_id_fk";
--> statement-breakpoint
DROP INDEX "entity_type_value_key";
--> statement-breakpoint
DROP INDEX "event_case_idx";
--> statement-breakpoint
DROP INDEX "participant_case_individual_key";
--> statement-breakpoint
CREATE INDEX "entity_type_value_idx" ON "entity" USING btree ("entity_type_id","value");
--> statement-breakpoint
ALTER TABLE "event" DROP COLUMN "case_id";
--> statement-breakpoint
ALTER TABLE "participant" DROP COLUMN "case_id";
