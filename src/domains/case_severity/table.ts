import { rankedTable } from '../../crud/ranked-table.ts';

export const caseSeverity = rankedTable('case_severity', {});
