DROP INDEX "incident_organization_status_priority_idx";
