ALTER TABLE "case_note" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
ALTER TABLE "import_source" DISABLE ROW LEVEL SECURITY;
--> statement-breakpoint
DROP TABLE "case_note" CASCADE;
--> statement-breakpoint
DROP TABLE "import_source" CASCADE;
--> statement-breakpoint
ALTER TABLE "case" DROP CONSTRAINT "case_resolved_by_id_app_user_id_fk";
--> statement-breakpoint
ALTER TABLE "feedback" DROP CONSTRAINT "feedback_case_id_case_id_fk";
--> statement-breakpoint
ALTER TABLE "case" DROP COLUMN "resolved_by_id";
--> statement-breakpoint
ALTER TABLE "feedback" DROP COLUMN "case_id";
