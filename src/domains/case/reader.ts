// Cases read by id: in full (CaseRead: get, create, update) and minimal (CaseReadMinimal: lists,
// related and duplicate cases). The readers read on behalf of a viewer: cases and incidents they
// may not see are left out at every depth.
import type { Static } from '@sinclair/typebox';
import type { Executor } from '../../db/connection.ts';
import { recordTarget } from '../lifecycle/kind.ts';
import { CASE } from './kind.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { declareRead, groupReader, readObjects, readTables, type OwnField, type ReadDef } from '../../crud/reader.ts';
import { readOneTogether } from '../../crud/read-together.ts';
import { column } from '../../crud/group.ts';
import type { Ctx } from '../../server/context.ts';
import { projection, within } from '../../list/projection.ts';
import { sql } from 'drizzle-orm';
import type { Reader } from '../../crud/group.ts';
import type { Viewer } from '../../server/viewer.ts';
import { casePriorityGroup, casePriorityTarget } from '../case_priority/group.ts';
import { caseSeverityGroup, caseSeverityTarget } from '../case_severity/group.ts';
import { caseTypeGroup, caseTypeTarget } from '../case_type/group.ts';
import { event } from '../event/table.ts';
import { incidentMinimalReader, incidentTarget } from '../incident/reader.ts';
import { participantMinimalReader, participantReader, participantTarget } from '../participant/reader.ts';
import { participant } from '../lifecycle/table.ts';
import { caseSignalInstances } from './signal-instances.ts';
import { tagReader, tagTarget } from '../tag/group.ts';
import { addCaseCosts, COST_INPUTS_FIELD, COST_TABLES, costInputs } from './costs.ts';
import { CaseRead, CaseReadIncludable, CaseReadMinimal } from './schema.ts';
import { caseDuplicate, caseRelated, caseTag } from './table.ts';
import { caseIncident, caseTable } from '../lifecycle/table.ts';
import { workflowInstanceReader } from '../workflow/reader.ts';
import { describedResource, RESOURCE_DESCRIPTIONS } from '../document/descriptions.ts';
import { recordDocuments } from '../record_document/read.ts';
import { workflowInstance } from '../workflow/table.ts';
import { participantGroup } from '../group/table.ts';

export const caseTarget: RefTarget = recordTarget(CASE);

const assessment = {
  case_priority: { column: 'case_priority_id', target: casePriorityTarget, read: () => groupReader(casePriorityGroup) },
  case_severity: { column: 'case_severity_id', target: caseSeverityTarget, read: () => groupReader(caseSeverityGroup) },
  case_type: { column: 'case_type_id', target: caseTypeTarget, read: () => groupReader(caseTypeGroup) },
};

const incidentsLink = { table: caseIncident, ownerColumn: 'case_id', otherColumn: 'incident_id', target: incidentTarget, read: incidentMinimalReader };
const caseLink = (table: typeof caseRelated | typeof caseDuplicate, other: string, read: () => Reader) => ({
  table,
  ownerColumn: 'case_id',
  otherColumn: other,
  target: caseTarget,
  read,
});

const none: OwnField = () => sql`'[]'::json`;

/** The costs of a case: computed when it is read, from inputs read from COST_TABLES (the classic one also follows the clock). */
const costs: Pick<ReadDef, 'hooked' | 'hooks' | 'hookTables'> = {
  hooked: ['total_cost_classic', 'total_cost_new', 'case_costs'],
  hooks: { afterRead: (db, items) => addCaseCosts(db, items) },
  hookTables: COST_TABLES,
};

/** A related or duplicate case nested in a minimal case: its own related and duplicates are not read. */
const nestedDef: ReadDef = {
  table: caseTable,
  refs: { ...assessment, assignee: { column: 'assignee_id', target: participantTarget, read: participantMinimalReader } },
  links: { incidents: incidentsLink },
  own: { related: none, duplicates: none },
  ...costs,
};

const minimalDef: ReadDef = {
  table: caseTable,
  refs: { ...assessment, assignee: { column: 'assignee_id', target: participantTarget, read: participantMinimalReader } },
  links: {
    incidents: incidentsLink,
    related: caseLink(caseRelated, 'related_id', () => groupReader(nestedDef)),
    duplicates: caseLink(caseDuplicate, 'duplicate_id', () => groupReader(nestedDef)),
  },
  ...costs,
};

const tagsLink = { table: caseTag, ownerColumn: 'case_id', otherColumn: 'tag_id', target: tagTarget, read: tagReader };

/** The minimal read with the case's tags, for the lists that `include[]` cuts (CaseReadIncludable). */
const includableDef: ReadDef = { ...minimalDef, links: { ...minimalDef.links, tags: tagsLink } };

/** The timeline, in order. */
const events: OwnField = (at, read, shape) =>
  read.list({ table: event, projectScoped: false }, event, shape, (t) => ({
    from: read.from(t, event),
    where: sql`${column(t, 'case_id')} = ${column(at, 'id')}`,
    order: sql`${column(t, 'started_at')}, ${column(t, 'seq')}`,
  }));

/** A group reads with the description Dispatch gives every group. */
const groupDescription: Record<string, OwnField> = { description: () => sql.raw(`'${RESOURCE_DESCRIPTIONS.group}'::text`) };

const fullDef = (withInstances: boolean): ReadDef => ({
  table: caseTable,
  refs: {
    ...assessment,
    // Nearly always among the participants: taken from there, rather than built again by the statement.
    assignee: { column: 'assignee_id', target: participantTarget, read: participantReader, among: 'participants' },
    // Beyond 0.1.0, for the web UI's case page, as incidents have theirs.
    reporter: { column: 'reporter_id', target: participantTarget, read: participantReader, among: 'participants' },
  },
  links: {
    tags: tagsLink,
    incidents: incidentsLink,
    related: caseLink(caseRelated, 'related_id', () => groupReader(minimalDef)),
    duplicates: caseLink(caseDuplicate, 'duplicate_id', () => groupReader(minimalDef)),
  },
  children: {
    participants: { table: participant, column: 'case_id', read: participantReader },
    workflow_instances: { table: workflowInstance, column: 'case_id', read: workflowInstanceReader },
    // Its tactical group, made by the participant-group plugin (group/service.ts).
    groups: { table: participantGroup, column: 'case_id', read: () => groupReader({ table: participantGroup, projectScoped: false, own: groupDescription }) },
  },
  own: {
    events,
    documents: recordDocuments('case_id'),
    // Read with the fixed descriptions Dispatch gives them (document/descriptions.ts).
    ticket: (at) => describedResource(column(at, 'ticket'), 'ticket'),
    storage: (at) => describedResource(column(at, 'storage'), 'storage'),
    // The case page's in the same statement, with what its costs are computed from: its hook needs no statement of its own.
    ...(withInstances ? { signal_instances: caseSignalInstances, [COST_INPUTS_FIELD]: costInputs } : { signal_instances: none }),
  },
  hooked: costs.hooked,
  hookReads: withInstances ? [COST_INPUTS_FIELD] : [],
  hooks: { afterRead: (db, items) => addCaseCosts(db, items) },
});
const withInstances = fullDef(true);
const withoutInstances = fullDef(false);

export type CaseReadT = Static<typeof CaseRead>;
export type CaseReadMinimalT = Static<typeof CaseReadMinimal>;
export type CaseReadIncludableT = Static<typeof CaseReadIncludable>;

/** CaseReadMinimal by case id. */
export const caseMinimalReader = () => groupReader(minimalDef, CaseReadMinimal);
/** CaseRead by case id. */
export const caseReader = () => groupReader(withInstances, CaseRead);

/**
 * Which read: `full` (CaseRead), `minimal` (CaseReadMinimal), `listed` (CaseReadMinimal for a list's
 * page, a column per field), or `in-instance`: CaseRead with `signal_instances` left empty, for the
 * case nested in a signal instance (its other instances, each with its raw document, would multiply
 * the size of every ingestion's answer).
 */
export type CaseShape = 'full' | 'minimal' | 'listed' | 'in-instance';

/** The shapes that read as CaseRead (`true` is `full`, `false` is `minimal`). */
type FullShape = true | 'full' | 'in-instance';

const inOrder = <T extends { id?: unknown }>(rows: T[], ids: number[]) => {
  const byId = new Map(rows.map((r) => [r.id as number, r]));
  return ids.map((id) => byId.get(id)).filter((x): x is T => !!x);
};

/**
 * A page of a list (the web UI's table, 25 cases): the same objects, read a column per field
 * (`flat`), so that PostgreSQL builds no object around each row's fields.
 */
const listedDef: ReadDef = { ...minimalDef, flat: true };
const listedIncludableDef: ReadDef = { ...includableDef, flat: true };

/**
 * Read objects of cases the caller has found `viewer` may see (or has just written), in their order,
 * with the related and duplicate cases and the incidents they may not see left out, at every level.
 */
export async function readVisibleCases(viewer: Viewer, db: Executor, ids: number[], shape: FullShape): Promise<CaseReadT[]>;
export async function readVisibleCases(viewer: Viewer, db: Executor, ids: number[], shape: false | 'minimal' | 'listed'): Promise<CaseReadMinimalT[]>;
export async function readVisibleCases(viewer: Viewer, db: Executor, ids: number[], shape: CaseShape | boolean): Promise<CaseReadT[] | CaseReadMinimalT[]>;
export async function readVisibleCases(viewer: Viewer, db: Executor, ids: number[], shape: CaseShape | boolean): Promise<CaseReadT[] | CaseReadMinimalT[]> {
  const [def, read] =
    shape === true || shape === 'full'
      ? [withInstances, CaseRead]
      : shape === 'in-instance'
        ? [withoutInstances, CaseRead]
        : [shape === 'listed' ? listedDef : minimalDef, CaseReadMinimal];
  // The one typed boundary of crud/reader.ts: the def reads as its shape.
  return inOrder(await readObjects(db, def, read, ids, viewer, 'checked'), ids) as CaseReadT[] | CaseReadMinimalT[];
}

/**
 * The fields of the web UI's dashboards (Muster's and Dispatch's): a list whose `include[]` keeps no
 * more than these reads only them, and applyInclude cuts the rest.
 */
const DASHBOARD = [
  'case_priority',
  'case_severity',
  'case_type',
  'closed_at',
  'created_at',
  'duplicates',
  'escalated_at',
  'incidents',
  'name',
  'project',
  'reported_at',
  'stable_at',
  'status',
  'tags',
  'title',
  'total_cost_classic',
  'total_cost_new',
  'triage_at',
];
const dashboard = projection(CaseReadIncludable, DASHBOARD, 'CaseDashboard');
declareRead(withInstances, CaseRead, 'case');
declareRead(withoutInstances, CaseRead, 'case-in-instance');
declareRead(minimalDef, CaseReadMinimal, 'case-minimal');
declareRead(includableDef, CaseReadIncludable, 'case-includable');
declareRead(listedDef, CaseReadMinimal, 'case-listed');
declareRead(listedIncludableDef, CaseReadIncludable, 'case-listed-includable');
/**
 * A dashboard's thousands of cases name a few projects, types, priorities and severities: each is
 * read once, as are the tags, incidents and duplicates, whose links are read for all the rows at once.
 */
const dashboardDef: ReadDef = {
  ...includableDef,
  shared: ['project', 'case_type', 'case_priority', 'case_severity', 'tags', 'incidents', 'duplicates'],
  flat: true,
};
declareRead(dashboardDef, dashboard, 'case-dashboard');

/** Whether a list with this `include[]` reads the dashboard's projection (list/kept-answers.ts). */
export const readsCaseDashboard = (include: string[]): boolean => include.length > 0 && within(include, DASHBOARD);

/** The tables the dashboard's projection reads for `viewer` (readTables). */
export const caseDashboardTables = (db: Executor, viewer: Viewer) => readTables(db, dashboardDef, dashboard, viewer);

/**
 * The fields of the web UI's cases table: what a row shows, and nothing that grows with the case (no
 * related cases, incidents, tags or costs); of its priority, severity, type and assignee only what the
 * row names.
 */
const TABLE = [
  'assignee.individual.email',
  'case_priority.name',
  'case_severity.name',
  'case_type.name',
  'name',
  'project',
  'reported_at',
  'status',
  'title',
  'visibility',
];
const table = projection(CaseReadIncludable, TABLE, 'CaseTable');
const tableDef: ReadDef = { table: caseTable, refs: listedDef.refs, flat: true };
declareRead(tableDef, table, 'case-table');

/**
 * Minimal read objects (with tags and stable_at) as readVisibleCases reads them, for a list whose items
 * `include[]` cuts: the dashboard's fields only, or the table's, when they are all it keeps.
 */
export async function readVisibleCasesIncluded(viewer: Viewer, db: Executor, ids: number[], include: string[]): Promise<CaseReadIncludableT[]> {
  const [def, shape] = within(include, DASHBOARD)
    ? [dashboardDef, dashboard]
    : within(include, TABLE)
      ? [tableDef, table]
      : [listedIncludableDef, CaseReadIncludable];
  return inOrder(await readObjects(db, def, shape, ids, viewer, 'checked'), ids) as CaseReadIncludableT[];
}

/**
 * The `in-instance` CaseRead of those of these cases that `viewer` may see, in no particular order:
 * the statement itself narrows them, so that no query before it has to.
 */
export async function readCasesSeenBy(viewer: Viewer, db: Executor, ids: number[]): Promise<CaseReadT[]> {
  return (await readObjects(db, withoutInstances, CaseRead, ids, viewer, 'visible')) as CaseReadT[];
}

/** GET case: CaseRead, if the caller may see it (else undefined). */
export async function readCaseFor(ctx: Ctx, id: number): Promise<CaseReadT | undefined> {
  return (await readOneTogether(ctx.db, withInstances, CaseRead, id, ctx)) as CaseReadT | undefined;
}
