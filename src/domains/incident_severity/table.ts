import { rankedTable } from '../../crud/ranked-table.ts';

export const incidentSeverity = rankedTable('incident_severity', {});
