// What the web UI (ui/src) takes from the server, and the only module of src/ it imports (Biome's
// noRestrictedImports, biome.jsonc): the API's own input shapes, so that a form refuses what the API
// would, with the same Ajv options; the read shapes its types come from; the roles and the lists of
// values its pickers offer.
export { ajvOptions } from '../server/validation.ts';
export { ROLES } from '../server/context.ts';
export { UserLogin, UserRegister } from '../domains/auth/schema.ts';
export { IncidentCreate, IncidentRead, IncidentUpdate, VISIBILITIES } from '../domains/incident/schema.ts';
export { ADDABLE_ROLES, EventCreateMinimal, IncidentParticipantAdd } from '../domains/incident/timeline-schema.ts';
export { CaseCreate } from '../domains/case/schema.ts';
export { TaskCreate, TaskRead } from '../domains/task/schema.ts';
export { ExecutiveReportCreate, TacticalReportCreate } from '../domains/report/schema.ts';
export {
  SignalCreate,
  SignalFilterCreate,
  SignalFilterRead,
  SignalFilterUpdate,
  SignalInstanceRead,
  SignalRead,
  SignalUpdate,
} from '../domains/signal/schema.ts';
export { ProjectCreate, ProjectUpdate } from '../domains/project/schema.ts';
export { incidentPriorityShapes } from '../domains/incident_priority/schema.ts';
export { incidentSeverityShapes } from '../domains/incident_severity/schema.ts';
export { IncidentTypeCreate, IncidentTypeUpdate } from '../domains/incident_type/schema.ts';
export { IncidentCostTypeCreate, IncidentCostTypeUpdate } from '../domains/incident_cost_type/schema.ts';
export { casePriorityShapes } from '../domains/case_priority/schema.ts';
export { caseSeverityShapes } from '../domains/case_severity/schema.ts';
export { CaseTypeCreate, CaseTypeUpdate } from '../domains/case_type/schema.ts';
export { IndividualContactCreate, IndividualContactUpdate } from '../domains/individual/schema.ts';
export { TeamContactCreate, TeamContactUpdate } from '../domains/team/schema.ts';
export { ServiceCreate, ServiceUpdate } from '../domains/service/schema.ts';
export { NotificationCreate, NotificationUpdate } from '../domains/notification/schema.ts';
export { TagCreate, TagUpdate } from '../domains/tag/schema.ts';
export { TagTypeCreate, TagTypeUpdate } from '../domains/tag_type/schema.ts';
export { WorkflowCreate, WorkflowUpdate } from '../domains/workflow/schema.ts';
