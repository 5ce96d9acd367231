// The contract's workflow shapes: workflows (WorkflowCreate/Update/Read/Pagination), the plugin
// instance a workflow runs through (PluginInstanceRead, its configuration masked), and runs
// (WorkflowInstanceCreate, the body of a run, and WorkflowInstanceRead, also nested in incidents
// and cases).
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Defaulted, Id, NameStr, Opt, Pagination, RefShape, withoutRequired } from '../../server/shapes.ts';
import { DocumentCreate } from '../document/schema.ts';
import { ParticipantRead } from '../participant/schema.ts';
import { ProjectRead } from '../project/schema.ts';
import { StringEnum } from '../search_filter/schema.ts';
import { PluginInstanceRead } from '../plugin/schema.ts';

export const WorkflowRead = Type.Object(
  {
    id: Id(),
    name: NameStr(),
    description: Opt(Type.String()),
    enabled: Type.Optional(Type.Boolean()),
    parameters: Type.Array(Type.Object({}, { additionalProperties: true }), { default: [] }),
    resource_id: Type.String(),
    plugin_instance: PluginInstanceRead,
    created_at: Type.Optional(DateTime()),
    updated_at: Type.Optional(DateTime()),
  },
  { title: 'WorkflowRead' },
);
export type WorkflowReadT = Static<typeof WorkflowRead>;

const Parameters = () => Defaulted(Type.Array(Type.Object({}, { additionalProperties: true }), { default: [] }));

const workflowFields = {
  name: NameStr(),
  description: Opt(Type.String()),
  enabled: Type.Optional(Type.Boolean()),
  parameters: Parameters(),
  resource_id: Type.String(),
  // By id: an instance of a workflow plugin in the workflow's project.
  plugin_instance: RefShape(PluginInstanceRead),
  // In the contract's bodies; the server sets them and ignores what is sent.
  created_at: Type.Optional(DateTime()),
  updated_at: Type.Optional(DateTime()),
};

export const WorkflowCreate = Type.Object({ ...workflowFields, project: RefShape(ProjectRead) }, { title: 'WorkflowCreate', additionalProperties: false });
export const WorkflowUpdate = Type.Object({ id: Type.Optional(Id()), ...workflowFields }, { title: 'WorkflowUpdate', additionalProperties: false });
export const WorkflowPagination = Pagination(WorkflowRead, 'WorkflowPagination');

/** A create or update body as the service reads it. */
export interface WorkflowBody {
  name: string;
  description?: string | null;
  enabled?: boolean;
  parameters?: Record<string, unknown>[];
  resource_id: string;
  plugin_instance?: { id?: number | null } | null;
  project?: { id?: number | null; name?: unknown } | null;
}

const named = (title: string) => Type.Object({ id: Id(), name: Opt(NameStr()) }, { title });

export const WORKFLOW_INSTANCE_STATUSES = ['Submitted', 'Created', 'Running', 'Completed', 'Failed'] as const;

export const WorkflowInstanceRead = Type.Object(
  {
    id: Id(),
    workflow: WorkflowRead,
    status: Opt(StringEnum(WORKFLOW_INSTANCE_STATUSES, 'WorkflowInstanceStatus')),
    parameters: Type.Array(Type.Object({}, { additionalProperties: true }), { default: [] }),
    artifacts: Type.Array(DocumentCreate, { default: [] }),
    run_reason: Opt(Type.String()),
    resource_id: Opt(Type.String()),
    resource_type: Opt(Type.String()),
    weblink: Opt(Type.String()),
    creator: Opt(ParticipantRead),
    incident: Opt(named('WorkflowIncident')),
    case: Opt(named('WorkflowCase')),
    signal: Opt(named('WorkflowSignal')),
    created_at: Type.Optional(DateTime()),
    updated_at: Type.Optional(DateTime()),
  },
  { title: 'WorkflowInstanceRead' },
);
export type WorkflowInstanceReadT = Static<typeof WorkflowInstanceRead>;

const subjectRef = (title: string) => Opt(Type.Object({ id: Type.Optional(Id()), name: Opt(NameStr()) }, { title, additionalProperties: true }));

/**
 * The body of a run: the subject by id (one of incident, case, signal), the participant who runs it
 * by email, parameters, artifacts to keep as documents, and why. The other fields are the server's.
 */
export const WorkflowInstanceCreate = Type.Object(
  {
    parameters: Parameters(),
    artifacts: Defaulted(Type.Array(withoutRequired(RefShape(DocumentCreate)), { default: [] })),
    run_reason: Opt(Type.String()),
    creator: Opt(withoutRequired(RefShape(ParticipantRead))),
    incident: subjectRef('WorkflowIncident'),
    case: subjectRef('WorkflowCase'),
    signal: subjectRef('WorkflowSignal'),
    status: Opt(StringEnum(WORKFLOW_INSTANCE_STATUSES, 'WorkflowInstanceStatus')),
    resource_id: Opt(Type.String()),
    resource_type: Opt(Type.String()),
    weblink: Opt(Type.String()),
    created_at: Type.Optional(DateTime()),
    updated_at: Type.Optional(DateTime()),
  },
  { title: 'WorkflowInstanceCreate', additionalProperties: false },
);

export interface ArtifactBody {
  name?: string;
  description?: string | null;
  resource_id?: string | null;
  resource_type?: string | null;
  weblink?: string | null;
}

/** A run's body as the service reads it. */
export interface RunBody {
  parameters?: Record<string, unknown>[];
  artifacts?: ArtifactBody[];
  run_reason?: string | null;
  creator?: { individual?: { email?: string } | null } | null;
  incident?: { id?: number } | null;
  case?: { id?: number } | null;
  signal?: { id?: number } | null;
}
