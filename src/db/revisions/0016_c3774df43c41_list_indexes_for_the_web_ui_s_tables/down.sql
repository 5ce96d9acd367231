DROP INDEX "case_project_reported_idx";
--> statement-breakpoint
DROP INDEX "case_project_created_idx";
--> statement-breakpoint
DROP INDEX "incident_project_reported_idx";
--> statement-breakpoint
DROP INDEX "incident_project_created_idx";
--> statement-breakpoint
DROP INDEX "case_organization_reported_idx";
--> statement-breakpoint
DROP INDEX "incident_organization_reported_idx";
--> statement-breakpoint
CREATE INDEX "case_organization_reported_idx" ON "case" USING btree ("organization_id","reported_at");
--> statement-breakpoint
CREATE INDEX "incident_organization_reported_idx" ON "incident" USING btree ("organization_id","reported_at");
