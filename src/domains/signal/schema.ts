// The contract's signal shapes: definitions (SignalCreate/Update/Read), filters (SignalFilter*),
// and instances (SignalInstanceCreate, SignalInstanceRead).
import { Type } from '@sinclair/typebox';
import { DateTime, Defaulted, Id, NameStr, Nullable, Opt, Pagination, RefShape, withoutRequired } from '../../server/shapes.ts';
import { casePriorityShapes } from '../case_priority/schema.ts';
import { CaseRead, CaseReadSentBack } from '../case/schema.ts';
import { CaseTypeRead } from '../case_type/schema.ts';
import { EntityRead } from '../entity/schema.ts';
import { EntityTypeRead } from '../entity_type/schema.ts';
import { ProjectRead } from '../project/schema.ts';
import { StringEnum } from '../search_filter/schema.ts';
import { SourceRead } from '../source/schema.ts';
import { TagRead } from '../tag/schema.ts';
import { WorkflowRead } from '../workflow/schema.ts';

export const FILTER_ACTIONS = ['deduplicate', 'snooze'] as const;
export const FILTER_MODES = ['active', 'monitor', 'inactive', 'expired'] as const;
export type FilterAction = (typeof FILTER_ACTIONS)[number];
export type FilterMode = (typeof FILTER_MODES)[number];
const Action = StringEnum(FILTER_ACTIONS, 'SignalFilterAction');
const Mode = StringEnum(FILTER_MODES, 'SignalFilterMode');

/** A §2.5 filter spec over signal instances, their entities and entity types; checked when saved. */
const Expression = Type.Array(Type.Object({}, { additionalProperties: true }));

// ---- filters ------------------------------------------------------------------------------------

const filterFields = {
  name: NameStr(),
  description: Opt(Type.String()),
  expression: Expression,
  mode: Defaulted(Type.Unsafe<FilterMode>({ ...Mode, default: 'active' })),
  action: Defaulted(Type.Unsafe<FilterAction>({ ...Action, default: 'snooze' })),
  /** Seconds a deduplicate filter looks back. */
  window: Defaulted(Type.Integer({ default: 600 })),
  expiration: Opt(DateTime()),
};

export const SignalFilterCreate = Type.Object(
  { ...filterFields, project: RefShape(ProjectRead) },
  { title: 'SignalFilterCreate', additionalProperties: false },
);
export const SignalFilterUpdate = Type.Object({ id: Id(), ...filterFields }, { title: 'SignalFilterUpdate', additionalProperties: false });
export const SignalFilterRead = Type.Object(
  {
    id: Id(),
    ...filterFields,
    mode: Type.Unsafe<FilterMode>({ ...Mode, default: 'active' }),
    action: Type.Unsafe<FilterAction>({ ...Action, default: 'snooze' }),
    window: Type.Integer({ default: 600 }),
  },
  { title: 'SignalFilterRead' },
);
export const SignalFilterPagination = Pagination(SignalFilterRead, 'SignalFilterPagination');

// ---- engagements (beyond 0.1.0) ------------------------------------------------------------------

const engagementFields = {
  name: NameStr(),
  description: Opt(Type.String()),
  require_mfa: Opt(Type.Boolean()),
  /** The entity type whose entity is engaged; by id or name, null clears it. */
  entity_type: Opt(RefShape(EntityTypeRead)),
  message: Opt(Type.String()),
};
export const SignalEngagementCreate = Type.Object(
  { ...engagementFields, project: RefShape(ProjectRead) },
  { title: 'SignalEngagementCreate', additionalProperties: false },
);
export const SignalEngagementUpdate = Type.Object(
  { id: Type.Optional(Id()), ...engagementFields },
  { title: 'SignalEngagementUpdate', additionalProperties: false },
);
export const SignalEngagementRead = Type.Object(
  { id: Id(), ...engagementFields, require_mfa: Type.Boolean(), entity_type: Opt(EntityTypeRead) },
  { title: 'SignalEngagementRead' },
);
export const SignalEngagementPagination = Pagination(SignalEngagementRead, 'SignalEngagementPagination');

// ---- definitions --------------------------------------------------------------------------------

const serviceFields = {
  id: Id(),
  name: Nullable(Type.String()),
  external_id: Nullable(Type.String()),
  description: Opt(Type.String()),
  is_active: Type.Optional(Type.Boolean()),
  type: Opt(Type.String()),
};
const SignalService = Type.Object(serviceFields, { title: 'Service' });
/** The on-call service named in a body: by id (or name); the contract's fields, not null. */
const SignalServiceRef = Type.Object({ ...serviceFields, name: Type.String(), external_id: Type.String() }, { title: 'Service' });

const signalFields = {
  name: Type.String(),
  owner: Type.String(),
  external_id: Type.String(),
  description: Opt(Type.String()),
  external_url: Opt(Type.String()),
  variant: Opt(Type.String()),
  conversation_target: Opt(Type.String()),
  enabled: Defaulted(Type.Boolean({ default: false })),
  create_case: Defaulted(Type.Boolean({ default: true })),
};

/** Records named in a definition's body: by id or name, the rest of a read object ignored. */
const loose = <T extends Parameters<typeof RefShape>[0]>(shape: T) => withoutRequired(RefShape(shape));
const signalRefs = {
  project: RefShape(ProjectRead),
  case_type: Opt(loose(CaseTypeRead)),
  case_priority: Opt(loose(casePriorityShapes.read)),
  oncall_service: Opt(loose(SignalServiceRef)),
  source: Opt(loose(SourceRead)),
  tags: Defaulted(Type.Array(loose(TagRead), { default: [] })),
  entity_types: Defaulted(Type.Array(loose(EntityTypeRead), { default: [] })),
  filters: Defaulted(Type.Array(loose(SignalFilterRead), { default: [] })),
  workflows: Defaulted(Type.Array(loose(WorkflowRead), { default: [] })),
  created_at: Type.Optional(DateTime()),
};

export const SignalCreate = Type.Object({ ...signalFields, ...signalRefs }, { title: 'SignalCreate', additionalProperties: false });
export const SignalUpdate = Type.Object({ id: Id(), ...signalFields, ...signalRefs }, { title: 'SignalUpdate', additionalProperties: false });
export const SignalRead = Type.Object(
  {
    id: Id(),
    ...signalFields,
    enabled: Type.Boolean({ default: false }),
    create_case: Type.Boolean({ default: true }),
    created_at: DateTime(),
    project: ProjectRead,
    case_type: Opt(CaseTypeRead),
    case_priority: Opt(casePriorityShapes.read),
    oncall_service: Opt(SignalService),
    source: Opt(SourceRead),
    tags: Type.Array(TagRead, { default: [] }),
    entity_types: Type.Array(EntityTypeRead, { default: [] }),
    filters: Type.Array(SignalFilterRead, { default: [] }),
    workflows: Type.Array(WorkflowRead, { default: [] }),
  },
  { title: 'SignalRead' },
);
export const SignalPagination = Pagination(SignalRead, 'SignalPagination');

// ---- instances ----------------------------------------------------------------------------------

/** The body of an ingestion: `raw` and the project matter; the read fields a client may echo are ignored. */
export const SignalInstanceCreate = Type.Object(
  {
    project: RefShape(ProjectRead),
    raw: Type.Object({}, { additionalProperties: true }),
    /** When the event happened; defaults to now. Windows and expirations are measured from it. */
    created_at: Type.Optional(DateTime()),
    // Read fields a client may send back; ignored.
    case: Type.Optional(loose(CaseReadSentBack)),
    entities: Defaulted(Type.Array(loose(EntityRead), { default: [] })),
    filter_action: Type.Optional(Action),
    signal: Type.Optional(loose(SignalRead)),
  },
  { title: 'SignalInstanceCreate', additionalProperties: false },
);

/** What a monitor-mode filter would have done to an instance. */
export const SignalFilterMonitorRead = Type.Object(
  { signal_filter_id: Id(), name: Type.String(), action: Action, case_id: Nullable(Type.Integer()) },
  { title: 'SignalFilterMonitorRead' },
);

export const SignalInstanceRead = Type.Object(
  {
    id: Type.String({ format: 'uuid' }),
    created_at: DateTime(),
    raw: Type.Object({}, { additionalProperties: true }),
    fingerprint: Nullable(Type.String()),
    filter_action: Opt(Action),
    project: ProjectRead,
    signal: SignalRead,
    entities: Type.Array(EntityRead, { default: [] }),
    case: Opt(CaseRead),
    /** Muster's addition: what monitor-mode filters would have done. */
    filter_monitor: Type.Array(SignalFilterMonitorRead, { default: [] }),
  },
  { title: 'SignalInstanceRead' },
);
export const SignalInstancePagination = Pagination(SignalInstanceRead, 'SignalInstancePagination');

/** GET entity/{id}/signal_instances/{days_back}. */
export const EntitySignalInstances = Type.Object({ instances: Type.Array(SignalInstanceRead) }, { title: 'EntitySignalInstances' });
