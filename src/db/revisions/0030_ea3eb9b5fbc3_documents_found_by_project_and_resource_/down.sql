DROP INDEX "document_project_resource_type_idx";
