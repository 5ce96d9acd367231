import type { RefTarget } from '../../crud/refs.ts';
import { rankedGroup } from '../../crud/ranked.ts';
import { casePriorityShapes } from './schema.ts';
import { casePriority } from './table.ts';

export const casePriorityTarget: RefTarget = { table: casePriority, model: 'CasePriority', label: 'Case priority' };

export const casePriorityGroup = rankedGroup({
  path: 'case_priorities',
  idParam: 'case_priority_id',
  thing: 'A case priority',
  model: 'CasePriority',
  tableName: 'case_priority',
  table: casePriority,
  shapes: casePriorityShapes,
  fields: { page_assignee: 'bool' },
});
