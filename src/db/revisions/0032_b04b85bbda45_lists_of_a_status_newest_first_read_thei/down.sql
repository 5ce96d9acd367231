DROP INDEX "case_organization_status_idx";
--> statement-breakpoint
DROP INDEX "incident_organization_status_idx";
--> statement-breakpoint
CREATE INDEX "case_organization_status_idx" ON "case" USING btree ("organization_id","status","reported_at");
--> statement-breakpoint
CREATE INDEX "incident_organization_status_idx" ON "incident" USING btree ("organization_id","status","reported_at");
