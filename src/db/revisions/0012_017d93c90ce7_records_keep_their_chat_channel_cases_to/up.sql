ALTER TABLE "case" ADD COLUMN "conversation" jsonb;
--> statement-breakpoint
CREATE INDEX "case_conversation_channel_idx" ON "case" USING btree ("organization_id",("conversation"->>'channel_id'));
--> statement-breakpoint
CREATE INDEX "incident_conversation_channel_idx" ON "incident" USING btree ("organization_id",("conversation"->>'channel_id'));
