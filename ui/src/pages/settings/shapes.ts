// The API's own body shapes of each settings group (src/domains/<name>/schema.ts, through
// src/app/ui-shapes.ts), which the forms are checked against before anything is sent.
import type { TSchema } from '@sinclair/typebox';
import {
  casePriorityShapes,
  caseSeverityShapes,
  CaseTypeCreate,
  CaseTypeUpdate,
  IndividualContactCreate,
  IndividualContactUpdate,
  IncidentCostTypeCreate,
  IncidentCostTypeUpdate,
  incidentPriorityShapes,
  incidentSeverityShapes,
  IncidentTypeCreate,
  IncidentTypeUpdate,
  NotificationCreate,
  NotificationUpdate,
  ProjectCreate,
  ProjectUpdate,
  ServiceCreate,
  ServiceUpdate,
  TagCreate,
  TagUpdate,
  TagTypeCreate,
  TagTypeUpdate,
  TeamContactCreate,
  TeamContactUpdate,
  WorkflowCreate,
  WorkflowUpdate,
} from '../../../../src/app/ui-shapes.ts';

/** The create and update shapes of a group built with rankedShapes. */
const pair = ({ create, update }: { create: TSchema; update: TSchema }) => ({ create, update });

export const SHAPES = {
  project: { create: ProjectCreate, update: ProjectUpdate },
  incidentPriority: pair(incidentPriorityShapes),
  incidentSeverity: pair(incidentSeverityShapes),
  incidentType: { create: IncidentTypeCreate, update: IncidentTypeUpdate },
  incidentCostType: { create: IncidentCostTypeCreate, update: IncidentCostTypeUpdate },
  casePriority: pair(casePriorityShapes),
  caseSeverity: pair(caseSeverityShapes),
  caseType: { create: CaseTypeCreate, update: CaseTypeUpdate },
  tagType: { create: TagTypeCreate, update: TagTypeUpdate },
  tag: { create: TagCreate, update: TagUpdate },
  individual: { create: IndividualContactCreate, update: IndividualContactUpdate },
  team: { create: TeamContactCreate, update: TeamContactUpdate },
  service: { create: ServiceCreate, update: ServiceUpdate },
  notification: { create: NotificationCreate, update: NotificationUpdate },
  workflow: { create: WorkflowCreate, update: WorkflowUpdate },
};
