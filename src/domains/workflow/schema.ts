// The read shapes of workflows and their instances, as the contract nests them in incidents.
// Workflows are not served yet: incidents list no instances, but their shape is the contract's.
import { Type } from '@sinclair/typebox';
import { DateTime, Id, NameStr, Opt } from '../../server/shapes.ts';
import { DocumentCreate } from '../document/schema.ts';
import { ParticipantRead } from '../participant/schema.ts';
import { ProjectRead } from '../project/schema.ts';
import { StringEnum } from '../search_filter/schema.ts';

export const PluginRead = Type.Object(
  {
    id: Id(),
    title: Type.String(),
    slug: Type.String(),
    author: Type.String(),
    author_url: Type.String(),
    type: Type.String(),
    multiple: Type.Boolean(),
    description: Opt(Type.String()),
    configuration_schema: Type.Optional(Type.Unknown()),
  },
  { title: 'PluginRead' },
);

export const PluginInstanceRead = Type.Object(
  {
    id: Id(),
    enabled: Type.Optional(Type.Boolean()),
    configuration: Opt(Type.Object({}, { additionalProperties: true })),
    configuration_schema: Type.Optional(Type.Unknown()),
    plugin: PluginRead,
    project: Opt(ProjectRead),
  },
  { title: 'PluginInstanceRead' },
);

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
