import { rankedTable } from '../incident_priority/ranked-table.ts';

export const incidentSeverity = rankedTable('incident_severity', {});
