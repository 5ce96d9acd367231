ALTER TABLE "case_document_link" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "document_revision" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "incident_document_link" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "record_document" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP TABLE "case_document_link" CASCADE;
--> statement-breakpoint
DROP TABLE "document_revision" CASCADE;
--> statement-breakpoint
DROP TABLE "incident_document_link" CASCADE;
--> statement-breakpoint
DROP TABLE "record_document" CASCADE;
--> statement-breakpoint
ALTER TABLE "document" drop column "search_vector";
--> statement-breakpoint
ALTER TABLE "document" ADD COLUMN "search_vector" "tsvector" GENERATED ALWAYS AS (setweight(to_tsvector('simple'::regconfig, coalesce("name"::text, '')), 'A')) STORED;
--> statement-breakpoint
CREATE INDEX "document_search_idx" ON "document" USING gin ("search_vector");
--> statement-breakpoint
ALTER TABLE "document" DROP COLUMN "content";
--> statement-breakpoint
ALTER TABLE "document" DROP COLUMN "version";
--> statement-breakpoint
ALTER TABLE "document" DROP COLUMN "read_only";
