CREATE INDEX "case_organization_status_priority_idx" ON "case" USING btree ("organization_id","status","case_priority_id");
