// An incident's type, priority and severity, as the lifecycle kit's assessment (lifecycle/assessment.ts).
import type { AssessmentSpec } from '../lifecycle/assessment.ts';
import { incident } from '../lifecycle/table.ts';
import { incidentPriorityGroup, incidentPriorityTarget } from '../incident_priority/group.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import { incidentSeverityGroup, incidentSeverityTarget } from '../incident_severity/group.ts';
import { incidentSeverity } from '../incident_severity/table.ts';
import { incidentTypeGroup, incidentTypeTarget } from '../incident_type/group.ts';
import { incidentType } from '../incident_type/table.ts';

export const INCIDENT_ASSESSMENT: AssessmentSpec = {
  type: {
    target: incidentTypeTarget,
    group: incidentTypeGroup,
    table: incidentType,
    column: incident.incident_type_id,
    model: 'IncidentType',
    fields: { id: 'int', name: 'text', visibility: 'text', exclude_from_metrics: 'bool' },
  },
  priority: {
    target: incidentPriorityTarget,
    group: incidentPriorityGroup,
    table: incidentPriority,
    column: incident.incident_priority_id,
    model: 'IncidentPriority',
    fields: { id: 'int', name: 'text', view_order: 'int', page_commander: 'bool' },
  },
  severity: {
    target: incidentSeverityTarget,
    group: incidentSeverityGroup,
    table: incidentSeverity,
    column: incident.incident_severity_id,
    model: 'IncidentSeverity',
    fields: { id: 'int', name: 'text', view_order: 'int' },
  },
};
