DROP INDEX "case_conversation_channel_idx";
--> statement-breakpoint
DROP INDEX "incident_conversation_channel_idx";
--> statement-breakpoint
ALTER TABLE "case" DROP COLUMN "conversation";
