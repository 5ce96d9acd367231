import { rankedTable } from '../incident_priority/ranked-table.ts';

export const caseSeverity = rankedTable('case_severity', {});
