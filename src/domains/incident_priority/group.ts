import type { RefTarget } from '../../crud/refs.ts';
import { rankedGroup } from '../../crud/ranked.ts';
import { incidentPriorityShapes } from './schema.ts';
import { incidentPriority } from './table.ts';

export const incidentPriorityTarget: RefTarget = { table: incidentPriority, model: 'IncidentPriority', label: 'Incident priority' };

export const incidentPriorityGroup = rankedGroup({
  path: 'incident_priorities',
  idParam: 'incident_priority_id',
  thing: 'An incident priority',
  model: 'IncidentPriority',
  tableName: 'incident_priority',
  table: incidentPriority,
  shapes: incidentPriorityShapes,
  fields: { page_commander: 'bool', tactical_report_reminder: 'int', executive_report_reminder: 'int' },
});
