// The contract's incident shapes: the full read (get, create, update, `expand=true` lists), the
// minimal read (lists, and incidents nested in tasks, feedback and duplicates), and the bodies.
import { Type, type TObject } from '@sinclair/typebox';
import { DateTime, Defaulted, Id, NameStr, Opt, RefShape, withoutRequired } from '../../server/shapes.ts';
import { StringEnum } from '../search_filter/schema.ts';
import { incidentPriorityShapes } from '../incident_priority/schema.ts';
import { incidentSeverityShapes } from '../incident_severity/schema.ts';
import { IncidentTypeRead } from '../incident_type/schema.ts';
import { IncidentCostTypeRead } from '../incident_cost_type/schema.ts';
import { TagRead } from '../tag/schema.ts';
import { TermRead } from '../term/schema.ts';
import { DocumentRead } from '../document/schema.ts';
import { EventRead } from '../event/schema.ts';
import { ReportRead } from '../report/schema.ts';
import { ParticipantRead, ParticipantReadMinimal, ParticipantUpdate } from '../participant/schema.ts';
import { WorkflowInstanceRead } from '../workflow/schema.ts';

export { ParticipantRead, ParticipantReadMinimal, ParticipantRoleRead, IndividualContactReadMinimal, ParticipantUpdate } from '../participant/schema.ts';

export const INCIDENT_STATUSES = ['Active', 'Stable', 'Closed'] as const;
export type IncidentStatus = (typeof INCIDENT_STATUSES)[number];
export const IncidentStatusEnum = StringEnum(INCIDENT_STATUSES, 'IncidentStatus');

export const VISIBILITIES = ['Open', 'Restricted'] as const;
export type Visibility = (typeof VISIBILITIES)[number];
export const VisibilityEnum = StringEnum(VISIBILITIES, 'Visibility');

/** A record's read without its project: how priorities, severities and types nest in minimal incidents. */
const minimal = (read: TObject, title: string) => Type.Omit(read, ['project'], { title });
export const IncidentPriorityReadMinimal = minimal(incidentPriorityShapes.read, 'IncidentPriorityReadMinimal');
export const IncidentSeverityReadMinimal = minimal(incidentSeverityShapes.read, 'IncidentSeverityReadMinimal');
export const IncidentTypeReadMinimal = minimal(IncidentTypeRead, 'IncidentTypeReadMinimal');

const projectFields = { id: Id(), name: NameStr(), color: Opt(Type.String()) };

/**
 * An incident's project, as the contract nests it, with what the web UI reads of it beyond 0.1.0:
 * the name its tables show and whether a Member may join the incident themselves.
 */
export const IncidentProjectRead = Type.Object(
  { ...projectFields, display_name: Type.String(), enabled: Type.Boolean(), allow_self_join: Type.Boolean() },
  { title: 'ProjectRead' },
);

/** The project named in an incident or case body, by id or name (the rest of a read object is ignored). */
export const ProjectNamed = Type.Object(projectFields, { title: 'ProjectRead' });

/** A cost of an incident (the incident cost group reads the same shape). */
export const IncidentCostRead = Type.Object(
  { id: Id(), amount: Type.Number({ default: 0 }), incident_cost_type: IncidentCostTypeRead },
  { title: 'IncidentCostRead' },
);
/** A cost in an incident update: with `id` it is kept as stored, without it is created. */
export const IncidentCostUpdate = Type.Object(
  { id: Type.Optional(Id()), amount: Defaulted(Type.Number({ default: 0 })), incident_cost_type: withoutRequired(RefShape(IncidentCostTypeRead)) },
  { title: 'IncidentCostUpdate', additionalProperties: true },
);

/** A task nested in its incident. */
export const IncidentTaskRead = Type.Object(
  {
    id: Id(),
    assignees: Type.Array(ParticipantRead, { default: [] }),
    created_at: DateTime(),
    description: Opt(Type.String()),
    status: Type.Unsafe<string>({ type: 'string', enum: ['Open', 'Resolved'], default: 'Open' }),
    weblink: Opt(Type.String()),
  },
  { title: 'TaskRead' },
);

/** A case linked with an incident (escalated into it, or linked from either side). */
export const IncidentCaseRead = Type.Object({ id: Id(), name: Opt(NameStr()) }, { title: 'CaseRead' });

const resource = (title: string, extra = {}) =>
  Type.Object(
    { resource_id: Opt(Type.String()), resource_type: Opt(Type.String()), weblink: Opt(Type.String()), description: Opt(Type.String()), ...extra },
    { title },
  );
export const ConferenceRead = resource('ConferenceRead', { conference_id: Opt(Type.String()), conference_challenge: Opt(Type.String()) });
export const ConversationRead = resource('ConversationRead', { id: Id(), channel_id: Opt(Type.String()), thread_id: Opt(Type.String()) });
export const StorageRead = resource('StorageRead');
export const TicketRead = resource('TicketRead');

/** Fields every incident read has, nested records aside. */
const common = {
  id: Id(),
  name: Opt(NameStr()),
  title: Type.String(),
  description: Type.String(),
  resolution: Opt(Type.String()),
  status: IncidentStatusEnum,
  visibility: VisibilityEnum,
  reported_at: DateTime(),
  stable_at: Opt(DateTime()),
  closed_at: Opt(DateTime()),
  created_at: DateTime(),
  commanders_location: Opt(Type.String()),
  reporters_location: Opt(Type.String()),
  participants_location: Opt(Type.String()),
  participants_team: Opt(Type.String()),
  total_cost: Type.Number(),
  project: IncidentProjectRead,
  tags: Type.Array(TagRead, { default: [] }),
  incident_costs: Type.Array(IncidentCostRead, { default: [] }),
};

/** Duplicates nest one level: theirs are not read. */
const IncidentDuplicateRead = Type.Object(
  {
    ...common,
    incident_priority: IncidentPriorityReadMinimal,
    incident_severity: IncidentSeverityReadMinimal,
    incident_type: IncidentTypeReadMinimal,
    commander: Opt(ParticipantReadMinimal),
    reporter: Opt(ParticipantReadMinimal),
    duplicates: Type.Array(Type.Object({ id: Id() }), { default: [] }),
  },
  { title: 'IncidentReadMinimal' },
);

export const IncidentReadMinimal = Type.Object(
  {
    ...common,
    incident_priority: IncidentPriorityReadMinimal,
    incident_severity: IncidentSeverityReadMinimal,
    incident_type: IncidentTypeReadMinimal,
    commander: Opt(ParticipantReadMinimal),
    reporter: Opt(ParticipantReadMinimal),
    duplicates: Type.Array(IncidentDuplicateRead, { default: [] }),
  },
  { title: 'IncidentReadMinimal' },
);

export const IncidentRead = Type.Object(
  {
    ...common,
    incident_priority: incidentPriorityShapes.read,
    incident_severity: incidentSeverityShapes.read,
    incident_type: IncidentTypeRead,
    commander: Opt(ParticipantRead),
    reporter: Opt(ParticipantRead),
    duplicates: Type.Array(IncidentReadMinimal, { default: [] }),
    participants: Type.Array(ParticipantRead, { default: [] }),
    events: Type.Array(EventRead, { default: [] }),
    tasks: Type.Array(IncidentTaskRead, { default: [] }),
    terms: Type.Array(TermRead, { default: [] }),
    documents: Type.Array(DocumentRead, { default: [] }),
    cases: Type.Array(IncidentCaseRead, { default: [] }),
    workflow_instances: Type.Array(WorkflowInstanceRead, { default: [] }),
    last_executive_report: Opt(ReportRead),
    last_tactical_report: Opt(ReportRead),
    conference: Opt(ConferenceRead),
    conversation: Opt(ConversationRead),
    storage: Opt(StorageRead),
    ticket: Opt(TicketRead),
  },
  { title: 'IncidentRead' },
);

/**
 * Muster's own field of a list item cut by `include[]` to the web UI's incidents table: when a
 * responder last said something (the newest report, or timeline entry a person wrote). Not in
 * Dispatch's read; present only when asked for.
 */
export const IncidentTableOwn = Type.Object({ last_update_at: Opt(DateTime()) });

// ---- bodies ---------------------------------------------------------------------------------------
// Records are named by id or name (RefShape: the rest of a read object sent back is ignored); the web
// UI sends null in unset references, so every optional reference accepts null.

const loose = <T extends TObject>(shape: T) => withoutRequired(RefShape(shape));
const ref = <T extends TObject>(shape: T) => Opt(loose(shape));

export const IncidentCreate = Type.Object(
  {
    title: Type.String(),
    description: Type.String(),
    resolution: Opt(Type.String()),
    status: Opt(IncidentStatusEnum),
    visibility: Opt(VisibilityEnum),
    project: ref(ProjectNamed),
    incident_type: ref(IncidentTypeRead),
    incident_priority: ref(incidentPriorityShapes.read),
    incident_severity: ref(incidentSeverityShapes.read),
    commander: Opt(ParticipantUpdate),
    reporter: Opt(ParticipantUpdate),
    tags: Defaulted(Type.Array(loose(TagRead), { default: [] })),
  },
  { title: 'IncidentCreate', additionalProperties: false },
);

export const IncidentUpdate = Type.Object(
  {
    title: Type.String(),
    description: Type.String(),
    resolution: Opt(Type.String()),
    status: Opt(IncidentStatusEnum),
    visibility: Opt(VisibilityEnum),
    incident_type: loose(IncidentTypeRead),
    incident_priority: loose(incidentPriorityShapes.read),
    incident_severity: loose(incidentSeverityShapes.read),
    commander: Opt(ParticipantUpdate),
    reporter: Opt(ParticipantUpdate),
    reported_at: Opt(DateTime()),
    stable_at: Opt(DateTime()),
    tags: Defaulted(Type.Array(loose(TagRead), { default: [] })),
    terms: Defaulted(Type.Array(loose(TermRead), { default: [] })),
    duplicates: Defaulted(Type.Array(RefShape(Type.Object({ id: Id() })), { default: [] })),
    incident_costs: Defaulted(Type.Array(IncidentCostUpdate, { default: [] })),
    cases: Defaulted(Type.Array(loose(IncidentCaseRead), { default: [] })),
  },
  { title: 'IncidentUpdate', additionalProperties: false },
);
