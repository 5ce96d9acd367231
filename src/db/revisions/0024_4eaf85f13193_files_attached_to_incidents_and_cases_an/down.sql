DROP TABLE "participant_group" CASCADE;
--> statement-breakpoint
DROP TABLE "record_file" CASCADE;
