DROP INDEX "case_organization_status_idx";
--> statement-breakpoint
DROP INDEX "incident_organization_status_idx";
--> statement-breakpoint
CREATE INDEX "case_organization_status_idx" ON "case" USING btree ("organization_id","status","reported_at" DESC NULLS FIRST,"id","case_priority_id","visibility");
--> statement-breakpoint
CREATE INDEX "incident_organization_status_idx" ON "incident" USING btree ("organization_id","status","reported_at" DESC NULLS FIRST,"id","incident_priority_id","visibility");
