// The API's own body shapes of each settings group (src/domains/<name>/schema.ts), which the forms
// are checked against before anything is sent.
import type { TSchema } from '@sinclair/typebox';
import { casePriorityShapes } from '../../../../src/domains/case_priority/schema.ts';
import { caseSeverityShapes } from '../../../../src/domains/case_severity/schema.ts';
import { CaseTypeCreate, CaseTypeUpdate } from '../../../../src/domains/case_type/schema.ts';
import { IndividualContactCreate, IndividualContactUpdate } from '../../../../src/domains/individual/schema.ts';
import { IncidentCostTypeCreate, IncidentCostTypeUpdate } from '../../../../src/domains/incident_cost_type/schema.ts';
import { incidentPriorityShapes } from '../../../../src/domains/incident_priority/schema.ts';
import { incidentSeverityShapes } from '../../../../src/domains/incident_severity/schema.ts';
import { IncidentTypeCreate, IncidentTypeUpdate } from '../../../../src/domains/incident_type/schema.ts';
import { NotificationCreate, NotificationUpdate } from '../../../../src/domains/notification/schema.ts';
import { ProjectCreate, ProjectUpdate } from '../../../../src/domains/project/schema.ts';
import { ServiceCreate, ServiceUpdate } from '../../../../src/domains/service/schema.ts';
import { TagCreate, TagUpdate } from '../../../../src/domains/tag/schema.ts';
import { TagTypeCreate, TagTypeUpdate } from '../../../../src/domains/tag_type/schema.ts';
import { TeamContactCreate, TeamContactUpdate } from '../../../../src/domains/team/schema.ts';
import { WorkflowCreate, WorkflowUpdate } from '../../../../src/domains/workflow/schema.ts';

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
