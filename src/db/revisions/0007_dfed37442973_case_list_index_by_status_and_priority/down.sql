DROP INDEX "case_organization_status_priority_idx";
