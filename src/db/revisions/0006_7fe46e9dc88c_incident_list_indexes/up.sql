CREATE INDEX "incident_organization_status_priority_idx" ON "incident" USING btree ("organization_id","status","incident_priority_id");
