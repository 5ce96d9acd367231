DROP INDEX "signal_instance_fingerprint_idx";
--> statement-breakpoint
CREATE INDEX "signal_instance_fingerprint_idx" ON "signal_instance" USING btree ("signal_id","fingerprint","created_at");
