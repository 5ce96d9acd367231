import type { RefTarget } from '../../crud/refs.ts';
import { rankedGroup } from '../../crud/ranked.ts';
import { incidentSeverityShapes } from './schema.ts';
import { incidentSeverity } from './table.ts';

export const incidentSeverityTarget: RefTarget = { table: incidentSeverity, model: 'IncidentSeverity', label: 'Incident severity' };

export const incidentSeverityGroup = rankedGroup({
  path: 'incident_severities',
  idParam: 'incident_severity_id',
  thing: 'An incident severity',
  model: 'IncidentSeverity',
  tableName: 'incident_severity',
  table: incidentSeverity,
  shapes: incidentSeverityShapes,
});
