// The contract's case shapes: the full read (get, create, update), the minimal read (related and
// duplicate cases), the bodies, and the shapes nested in them.
import { Type, type TObject } from '@sinclair/typebox';
import { DateTime, Defaulted, Email, Id, NameStr, Opt, RefShape, withoutRequired } from '../../server/shapes.ts';
import { StringEnum } from '../search_filter/schema.ts';
import { casePriorityShapes } from '../case_priority/schema.ts';
import { caseSeverityShapes } from '../case_severity/schema.ts';
import { CaseTypeRead } from '../case_type/schema.ts';
import { DocumentRead } from '../document/schema.ts';
import { EntityRead } from '../entity/schema.ts';
import { EventRead } from '../event/schema.ts';
import { IncidentReadMinimal, ProjectNamed, StorageRead, TicketRead, VisibilityEnum } from '../incident/schema.ts';
import { ParticipantRead, ParticipantReadMinimal, ParticipantUpdate } from '../participant/schema.ts';
import { TagRead } from '../tag/schema.ts';
import { WorkflowInstanceRead } from '../workflow/schema.ts';

export const CASE_STATUSES = ['New', 'Triage', 'Escalated', 'Stable', 'Closed'] as const;
export type CaseStatus = (typeof CASE_STATUSES)[number];
export const CaseStatusEnum = StringEnum(CASE_STATUSES, 'CaseStatus');

export const CASE_RESOLUTION_REASONS = ['False Positive', 'User Acknowledged', 'Mitigated', 'Escalated'] as const;
export type CaseResolutionReason = (typeof CASE_RESOLUTION_REASONS)[number];
export const CaseResolutionReasonEnum = StringEnum(CASE_RESOLUTION_REASONS, 'CaseResolutionReason');

/** A case's project, as the contract nests it, with the name the web UI's tables show (beyond 0.1.0). */
export const CaseProjectRead = Type.Object(
  {
    id: Type.Optional(Id()),
    name: NameStr(),
    color: Opt(Type.String()),
    display_name: Type.String(),
    enabled: Type.Boolean(),
    allow_self_join: Type.Boolean(),
  },
  { title: 'ProjectRead' },
);

/** A group (mailing list) made for a case. */
export const GroupRead = Type.Object(
  {
    id: Id(),
    name: NameStr(),
    email: Email(),
    description: Opt(Type.String()),
    resource_id: Opt(Type.String()),
    resource_type: Opt(Type.String()),
    weblink: Opt(Type.String()),
  },
  { title: 'GroupRead' },
);

/** The signal of an instance nested in a case. */
export const CaseSignalRead = Type.Object(
  {
    id: Id(),
    name: Type.String(),
    owner: Type.String(),
    external_id: Type.String(),
    description: Opt(Type.String()),
    external_url: Opt(Type.String()),
    variant: Opt(Type.String()),
    workflow_instances: Type.Array(WorkflowInstanceRead, { default: [] }),
  },
  { title: 'SignalRead' },
);

/** A signal instance nested in a case. */
export const CaseSignalInstanceRead = Type.Object(
  {
    created_at: DateTime(),
    entities: Type.Array(EntityRead, { default: [] }),
    fingerprint: Opt(Type.String()),
    raw: Type.Unknown(),
    signal: CaseSignalRead,
    tags: Type.Array(TagRead, { default: [] }),
  },
  { title: 'SignalInstanceRead' },
);

/** Fields every case read has, nested records aside. */
const common = {
  id: Id(),
  name: Opt(NameStr()),
  title: Type.String(),
  description: Opt(Type.String()),
  resolution: Opt(Type.String()),
  resolution_reason: Opt(CaseResolutionReasonEnum),
  status: Opt(CaseStatusEnum),
  visibility: Opt(VisibilityEnum),
  reported_at: Opt(DateTime()),
  triage_at: Opt(DateTime()),
  escalated_at: Opt(DateTime()),
  closed_at: Opt(DateTime()),
  created_at: Opt(DateTime()),
  case_priority: casePriorityShapes.read,
  case_severity: caseSeverityShapes.read,
  case_type: CaseTypeRead,
  project: CaseProjectRead,
  incidents: Type.Array(IncidentReadMinimal, { default: [] }),
};

/** Beyond 0.1.0 (current Dispatch's web UI): one cost of a case under one cost model, as `case_costs` lists them. */
export const CaseCostRead = Type.Object(
  {
    id: Id(),
    amount: Type.Number(),
    case_cost_type: Type.Object(
      {
        id: Id(),
        name: Type.String(),
        description: Opt(Type.String()),
        category: Opt(Type.String()),
        details: Type.Record(Type.String(), Type.Unknown()),
        editable: Type.Boolean(),
        model_type: Type.String(),
        created_at: Opt(DateTime()),
      },
      { title: 'CaseCostTypeRead' },
    ),
  },
  { title: 'CaseCostRead' },
);

/**
 * Beyond 0.1.0 (current Dispatch): the case's costs under the classic and the new cost model
 * (costs.ts), and the same two as the list of case costs the web UI's tables and cost tab sum.
 */
const costs = { total_cost_classic: Type.Number(), total_cost_new: Type.Number(), case_costs: Type.Array(CaseCostRead) };

/** Related and duplicate cases nest one level: theirs are not read. */
const CaseNestedMinimal = Type.Object(
  {
    ...common,
    assignee: Opt(ParticipantReadMinimal),
    related: Type.Array(Type.Object({ id: Id() }), { default: [] }),
    duplicates: Type.Array(Type.Object({ id: Id() }), { default: [] }),
  },
  { title: 'CaseReadMinimal' },
);

export const CaseReadMinimal = Type.Object(
  {
    ...common,
    ...costs,
    assignee: Opt(ParticipantReadMinimal),
    related: Type.Array(CaseNestedMinimal, { default: [] }),
    duplicates: Type.Array(CaseNestedMinimal, { default: [] }),
  },
  { title: 'CaseReadMinimal' },
);

/**
 * Beyond 0.1.0: what a list's `include[]` may keep of a case. Current Dispatch cuts it from the full
 * read, and its case dashboard asks for `tags` and `stable_at` besides the minimal read's fields.
 */
export const CaseReadIncludable = Type.Object(
  { ...CaseReadMinimal.properties, stable_at: Opt(DateTime()), tags: Type.Array(TagRead, { default: [] }) },
  { title: 'CaseReadIncludable' },
);

export const CaseRead = Type.Object(
  {
    ...common,
    ...costs,
    assignee: Opt(ParticipantRead),
    /** Beyond 0.1.0, for the web UI: the participant who reported the case. */
    reporter: Opt(ParticipantRead),
    related: Type.Array(CaseReadMinimal, { default: [] }),
    duplicates: Type.Array(CaseReadMinimal, { default: [] }),
    participants: Type.Array(ParticipantRead, { default: [] }),
    events: Type.Array(EventRead, { default: [] }),
    documents: Type.Array(DocumentRead, { default: [] }),
    groups: Type.Array(GroupRead, { default: [] }),
    signal_instances: Type.Array(CaseSignalInstanceRead, { default: [] }),
    tags: Type.Array(TagRead, { default: [] }),
    workflow_instances: Type.Array(WorkflowInstanceRead, { default: [] }),
    storage: Opt(StorageRead),
    ticket: Opt(TicketRead),
  },
  { title: 'CaseRead' },
);

/** A case read sent back inside another body (a signal instance's): its costs are computed, never taken. */
export const CaseReadSentBack = Type.Omit(CaseRead, Object.keys(costs) as (keyof typeof costs)[], { title: 'CaseRead' });

// ---- bodies ---------------------------------------------------------------------------------------
// Records are named by id or name; the rest of a read object sent back is ignored, and null is
// accepted wherever a read may hold it (the web UI sends read objects back).

const loose = <T extends TObject>(shape: T) => withoutRequired(RefShape(shape));
const ref = <T extends TObject>(shape: T) => Opt(loose(shape));
const IdRef = RefShape(Type.Object({ id: Id() }));

export const CaseCreate = Type.Object(
  {
    title: Type.String(),
    description: Opt(Type.String()),
    resolution: Opt(Type.String()),
    resolution_reason: Opt(CaseResolutionReasonEnum),
    status: Opt(CaseStatusEnum),
    visibility: Opt(VisibilityEnum),
    project: ref(ProjectNamed),
    case_type: ref(CaseTypeRead),
    case_priority: ref(casePriorityShapes.read),
    case_severity: ref(caseSeverityShapes.read),
    assignee: Opt(ParticipantUpdate),
    reporter: Opt(ParticipantUpdate),
    tags: Defaulted(Type.Array(loose(TagRead), { default: [] })),
  },
  { title: 'CaseCreate', additionalProperties: false },
);

export const CaseUpdate = Type.Object(
  {
    title: Type.String(),
    description: Opt(Type.String()),
    resolution: Opt(Type.String()),
    resolution_reason: Opt(CaseResolutionReasonEnum),
    status: Opt(CaseStatusEnum),
    visibility: Opt(VisibilityEnum),
    case_type: ref(CaseTypeRead),
    case_priority: ref(casePriorityShapes.read),
    case_severity: ref(caseSeverityShapes.read),
    assignee: Opt(ParticipantUpdate),
    /** Beyond 0.1.0, for the web UI's case page: its reporter picker sends the case back with another reporter. */
    reporter: Opt(ParticipantUpdate),
    reported_at: Opt(DateTime()),
    triage_at: Opt(DateTime()),
    escalated_at: Opt(DateTime()),
    tags: Defaulted(Type.Array(loose(TagRead), { default: [] })),
    related: Defaulted(Type.Array(IdRef, { default: [] })),
    duplicates: Defaulted(Type.Array(IdRef, { default: [] })),
    incidents: Defaulted(Type.Array(IdRef, { default: [] })),
  },
  { title: 'CaseUpdate', additionalProperties: false },
);
