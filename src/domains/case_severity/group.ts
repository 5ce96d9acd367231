import type { RefTarget } from '../../crud/refs.ts';
import { rankedGroup } from '../../crud/ranked.ts';
import { caseSeverityShapes } from './schema.ts';
import { caseSeverity } from './table.ts';

export const caseSeverityTarget: RefTarget = { table: caseSeverity, model: 'CaseSeverity', label: 'Case severity' };

export const caseSeverityGroup = rankedGroup({
  path: 'case_severities',
  idParam: 'case_severity_id',
  thing: 'A case severity',
  model: 'CaseSeverity',
  tableName: 'case_severity',
  table: caseSeverity,
  shapes: caseSeverityShapes,
});
