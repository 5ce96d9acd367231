CREATE INDEX "document_project_resource_type_idx" ON "document" USING btree ("project_id","resource_type","id");
