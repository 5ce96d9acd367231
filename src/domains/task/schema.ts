import { Type, type Static } from '@sinclair/typebox';
import { includeShape } from '../../list/include.ts';
import { DateTime, Defaulted, Id, IncludeQuery, ListQuery, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { StringEnum } from '../search_filter/schema.ts';
import { IncidentReadMinimal, ParticipantRead, ParticipantUpdate } from '../incident/schema.ts';
import { ProjectRead } from '../project/schema.ts';

export const TASK_STATUSES = ['Open', 'Resolved'] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number];
const Status = StringEnum(TASK_STATUSES, 'TaskStatus');
const status = Type.Unsafe<TaskStatus>({ ...Status, default: 'Open' });

// The web UI sends null in unset fields (owner, creator, resolve_by, resolved_at): every optional field takes null.
const fields = {
  assignees: Defaulted(Type.Array(ParticipantUpdate, { default: [] })),
  creator: Opt(ParticipantUpdate),
  owner: Opt(ParticipantUpdate),
  description: Opt(Type.String()),
  // By id (or name): the incident the task belongs to.
  incident: RefShape(IncidentReadMinimal),
  priority: Opt(Type.String()),
  source: Opt(Type.String()),
  status: Defaulted(status),
  resolve_by: Opt(DateTime()),
  resource_id: Opt(Type.String()),
  resource_type: Opt(Type.String()),
  weblink: Opt(Type.String()),
  // In the contract's bodies; the server sets them and ignores what is sent.
  created_at: Opt(DateTime()),
  updated_at: Opt(DateTime()),
  resolved_at: Opt(DateTime()),
};

export const TaskCreate = Type.Object(fields, { title: 'TaskCreate', additionalProperties: false });
export const TaskUpdate = Type.Object(fields, { title: 'TaskUpdate', additionalProperties: false });
export type TaskBody = {
  assignees?: { individual?: { email?: string } }[];
  owner?: { individual?: { email?: string } } | null;
  incident?: { id?: number | null; name?: unknown } | null;
  description?: string | null;
  priority?: string | null;
  source?: string | null;
  status?: TaskStatus;
  resolve_by?: string | null;
  resource_id?: string | null;
  resource_type?: string | null;
  weblink?: string | null;
};

export const TaskRead = Type.Object(
  {
    id: Id(),
    assignees: Type.Array(ParticipantRead, { default: [] }),
    creator: Opt(ParticipantRead),
    owner: Opt(ParticipantRead),
    description: Opt(Type.String()),
    incident: IncidentReadMinimal,
    project: ProjectRead,
    priority: Opt(Type.String()),
    source: Opt(Type.String()),
    status,
    resolve_by: Opt(DateTime()),
    resolved_at: Opt(DateTime()),
    resource_id: Opt(Type.String()),
    resource_type: Opt(Type.String()),
    weblink: Opt(Type.String()),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'TaskRead' },
);

export type TaskReadT = Static<typeof TaskRead>;

export const TaskListQuery = Type.Object({ ...ListQuery.properties, ...IncludeQuery.properties });

/** Items are whole tasks, or cut to the fields `include[]` names (list/include.ts). */
export const TaskList = includeShape(Pagination(TaskRead, 'TaskPagination'));
