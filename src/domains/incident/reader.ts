// Incidents read by id: in full (IncidentRead) and minimal (IncidentReadMinimal, for lists and for
// incidents nested in tasks, feedback and duplicates). Each kind of nested record is one query per
// response (one query for all of them where the readers allow, crud/reader.ts). The readers read
// on behalf of a viewer: incidents and cases they may not see are left out at every depth.
import type { RefTarget } from '../../crud/refs.ts';
import { sql } from 'drizzle-orm';
import { projection, within } from '../../list/projection.ts';
import { readOneTogether } from '../../crud/read-together.ts';
import type { Ctx } from '../../server/context.ts';
import { column } from '../../crud/group.ts';
import { declareRead, groupReader, readObjects, readTables, shallowReader, type OwnField, type ReadDef } from '../../crud/reader.ts';
import type { Reader } from '../../crud/group.ts';
import { type Static, Type } from '@sinclair/typebox';
import type { Executor } from '../../db/connection.ts';
import { recordTarget } from '../lifecycle/kind.ts';
import { INCIDENT } from './kind.ts';
import type { Viewer } from '../../server/viewer.ts';
import { caseIncident, caseTable } from '../lifecycle/table.ts';
import { event } from '../event/table.ts';
import { report } from '../report/table.ts';
import { incidentCost } from '../incident_cost/table.ts';
import { incidentCostTypeTarget } from '../incident_cost_type/group.ts';
import { incidentPriorityGroup, incidentPriorityTarget } from '../incident_priority/group.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import { incidentSeverityGroup, incidentSeverityTarget } from '../incident_severity/group.ts';
import { incidentSeverity } from '../incident_severity/table.ts';
import { incidentTypeGroup, incidentTypeTarget } from '../incident_type/group.ts';
import { TEMPLATE_DOCUMENTS } from '../incident_type/schema.ts';
import { incidentType } from '../incident_type/table.ts';
import { participant } from '../lifecycle/table.ts';
import { participantMinimalReader, participantReader, participantTarget } from '../participant/reader.ts';
import { tagReader, tagTarget } from '../tag/group.ts';
import { termGroup } from '../term/group.ts';
import { task, taskAssignee } from '../task/table.ts';
import { termTarget } from '../term/target.ts';
import { workflowInstanceReader } from '../workflow/reader.ts';
import { describedResource } from '../document/descriptions.ts';
import { recordDocuments } from '../record_document/read.ts';
import { workflowInstance } from '../workflow/table.ts';
import { IncidentRead, IncidentReadMinimal, IncidentTableOwn } from './schema.ts';
import { incidentDuplicate, incidentTag, incidentTerm } from './table.ts';
import { incident } from '../lifecycle/table.ts';

export const incidentTarget: RefTarget = recordTarget(INCIDENT);

/** Costs nested in an incident: amount and cost type. */
const costDef: ReadDef = {
  table: incidentCost,
  projectScoped: false,
  refs: { incident_cost_type: { column: 'incident_cost_type_id', target: incidentCostTypeTarget } },
};
export const incidentCostReader = () => groupReader(costDef);

/** Tasks nested in an incident: their own fields and assignees. */
const taskDef: ReadDef = {
  table: task,
  projectScoped: false,
  links: { assignees: { table: taskAssignee, ownerColumn: 'task_id', otherColumn: 'participant_id', target: participantTarget, read: participantReader } },
};

/** total_cost: the sum of the incident's costs, added in the order JavaScript added them (by id). */
const totalCost: OwnField = (at) =>
  sql`(SELECT COALESCE(sum(c."amount" ORDER BY c."id"), 0) FROM "incident_cost" c WHERE c."incident_id" = ${column(at, 'id')})`;

const none: OwnField = () => sql`'[]'::json`;

/** A type nested in a minimal incident: its columns, without the template documents the full type nests. */
const typeMinimalDef: ReadDef = { table: incidentType, projectScoped: false, absent: TEMPLATE_DOCUMENTS };

const minimalRefs = (participants: () => Reader): ReadDef['refs'] => ({
  incident_priority: { column: 'incident_priority_id', target: incidentPriorityTarget, read: () => shallowReader(incidentPriority) },
  incident_severity: { column: 'incident_severity_id', target: incidentSeverityTarget, read: () => shallowReader(incidentSeverity) },
  incident_type: { column: 'incident_type_id', target: incidentTypeTarget, read: () => groupReader(typeMinimalDef) },
  commander: { column: 'commander_id', target: participantTarget, read: participants },
  reporter: { column: 'reporter_id', target: participantTarget, read: participants },
});

const tagsLink = { table: incidentTag, ownerColumn: 'incident_id', otherColumn: 'tag_id', target: tagTarget, read: tagReader };
const costsChild = { table: incidentCost, column: 'incident_id', read: incidentCostReader };

/** A duplicate nested in a minimal incident: its own duplicates are not read. */
const duplicateDef: ReadDef = {
  table: incident,
  refs: minimalRefs(participantMinimalReader),
  links: { tags: tagsLink },
  children: { incident_costs: costsChild },
  own: { total_cost: totalCost, duplicates: none },
};

const duplicatesLink = (read: () => Reader) => ({
  table: incidentDuplicate,
  ownerColumn: 'incident_id',
  otherColumn: 'duplicate_id',
  target: incidentTarget,
  read,
});

const minimalDef: ReadDef = {
  table: incident,
  refs: minimalRefs(participantMinimalReader),
  links: { tags: tagsLink, duplicates: duplicatesLink(() => groupReader(duplicateDef)) },
  children: { incident_costs: costsChild },
  own: { total_cost: totalCost },
};

const eventDef: ReadDef = { table: event, projectScoped: false };
const reportDef: ReadDef = { table: report, projectScoped: false };

/** The timeline, in order. */
const events: OwnField = (at, read, shape) =>
  read.list(eventDef, event, shape, (t) => ({
    from: read.from(t, event),
    where: sql`${column(t, 'incident_id')} = ${column(at, 'id')}`,
    order: sql`${column(t, 'started_at')}, ${column(t, 'seq')}`,
  }));

/** The newest report of a type. */
const lastReport =
  (type: string): OwnField =>
  (at, read, shape) =>
    read.latest(
      reportDef,
      shape,
      (t) => sql`${column(t, 'incident_id')} = ${column(at, 'id')} AND ${column(t, 'type')} = ${type}`,
      (t) => sql`${column(t, 'created_at')} DESC, ${column(t, 'id')} DESC`,
    );

/** Cases linked with the incident (escalated into it): their id and name. */
const casesLink = {
  table: caseIncident,
  ownerColumn: 'incident_id',
  otherColumn: 'case_id',
  target: { table: caseTable, model: 'Case', label: 'Case', projectScoped: false },
  read: () => shallowReader(caseTable),
};

const fullDef: ReadDef = {
  table: incident,
  refs: {
    incident_priority: { column: 'incident_priority_id', target: incidentPriorityTarget, read: () => groupReader(incidentPriorityGroup) },
    incident_severity: { column: 'incident_severity_id', target: incidentSeverityTarget, read: () => groupReader(incidentSeverityGroup) },
    incident_type: { column: 'incident_type_id', target: incidentTypeTarget, read: () => groupReader(incidentTypeGroup) },
    // Nearly always among the participants: taken from there, rather than built again by the statement.
    commander: { column: 'commander_id', target: participantTarget, read: participantReader, among: 'participants' },
    reporter: { column: 'reporter_id', target: participantTarget, read: participantReader, among: 'participants' },
  },
  links: {
    tags: tagsLink,
    terms: { table: incidentTerm, ownerColumn: 'incident_id', otherColumn: 'term_id', target: termTarget, read: () => groupReader(termGroup) },
    duplicates: duplicatesLink(() => incidentMinimalReader()),
    cases: casesLink,
  },
  children: {
    participants: { table: participant, column: 'incident_id', read: participantReader },
    tasks: { table: task, column: 'incident_id', read: () => groupReader(taskDef) },
    incident_costs: costsChild,
    workflow_instances: { table: workflowInstance, column: 'incident_id', read: workflowInstanceReader },
  },
  own: {
    total_cost: totalCost,
    events,
    last_executive_report: lastReport('Executive Report'),
    last_tactical_report: lastReport('Tactical Report'),
    documents: recordDocuments('incident_id'),
    // The channel is kept on the incident (conversation/room.ts), where Dispatch keeps a row with an id of its own: the incident's stands in.
    conversation: (at) => describedResource(column(at, 'conversation'), 'conversation', sql`jsonb_build_object('id', ${column(at, 'id')})`),
    // Read with the fixed descriptions Dispatch gives them (document/descriptions.ts).
    ticket: (at) => describedResource(column(at, 'ticket'), 'ticket'),
    storage: (at) => describedResource(column(at, 'storage'), 'storage'),
    conference: (at) => describedResource(column(at, 'conference'), 'conference'),
  },
};

export type IncidentReadT = Static<typeof IncidentRead>;
export type IncidentReadMinimalT = Static<typeof IncidentReadMinimal>;

/** IncidentReadMinimal by incident id. */
export const incidentMinimalReader = () => groupReader(minimalDef, IncidentReadMinimal);
/** IncidentRead by incident id. */
export const incidentReader = () => groupReader(fullDef, IncidentRead);

/**
 * A page of a list (the web UI's table, 25 incidents): the same objects, read a column per field
 * (`flat`), so that PostgreSQL builds no object around each row's fields.
 */
const listedMinimalDef: ReadDef = { ...minimalDef, flat: true };
const listedFullDef: ReadDef = { ...fullDef, flat: true };
declareRead(listedMinimalDef, IncidentReadMinimal, 'incident-listed');
declareRead(listedFullDef, IncidentRead, 'incident-listed-full');

/**
 * Read objects for ids, in their order, skipping ids not found (IncidentRead if `full`, else
 * IncidentReadMinimal): incidents the caller has found `viewer` may see (or has just written), with
 * what they nest narrowed to what `viewer` may see. `flat` reads a list's page: the same objects,
 * a column per field.
 */
export async function readIncidents(db: Executor, ids: number[], full: true, viewer: Viewer, flat?: boolean): Promise<IncidentReadT[]>;
export async function readIncidents(
  db: Executor,
  ids: number[],
  full: boolean,
  viewer: Viewer,
  flat?: boolean,
): Promise<IncidentReadT[] | IncidentReadMinimalT[]>;
export async function readIncidents(
  db: Executor,
  ids: number[],
  full: boolean,
  viewer: Viewer,
  flat = false,
): Promise<IncidentReadT[] | IncidentReadMinimalT[]> {
  const [def, shape] = full ? [flat ? listedFullDef : fullDef, IncidentRead] : [flat ? listedMinimalDef : minimalDef, IncidentReadMinimal];
  return inOrder(await readObjects(db, def, shape, ids, viewer, 'checked'), ids) as IncidentReadT[] | IncidentReadMinimalT[];
}

/**
 * The fields of the web UI's dashboards (Muster's and Dispatch's): a list whose `include[]` keeps no
 * more than these reads only them, and applyInclude cuts the rest. Lists with other `include[]` read
 * the whole item: what a client sends never makes a statement of its own.
 */
const DASHBOARD = [
  'closed_at',
  'commanders_location',
  'created_at',
  'duplicates',
  'incident_priority',
  'incident_severity',
  'incident_type',
  'name',
  'participants_location',
  'participants_team',
  'project',
  'reported_at',
  'reporters_location',
  'stable_at',
  'status',
  'tags',
  'title',
  'total_cost',
];
const dashboardMinimal = projection(IncidentReadMinimal, DASHBOARD, 'IncidentDashboard');
const dashboardFull = projection(IncidentRead, DASHBOARD, 'IncidentDashboardFull');
declareRead(fullDef, IncidentRead, 'incident');
declareRead(minimalDef, IncidentReadMinimal, 'incident-minimal');
/**
 * A dashboard's thousands of incidents name a few projects, types, priorities, severities and tags:
 * each is read once, as are the duplicates, whose links are read for all the rows at once.
 */
const SHARED = ['project', 'incident_type', 'incident_priority', 'incident_severity', 'tags', 'duplicates'];

/**
 * total_cost of a dashboard's thousands of incidents: one grouped read of all their costs, summed
 * as totalCost sums them, where a subquery per row probed the costs' index once per incident (as
 * much of PostgreSQL's time as all the other fields together).
 */
async function addTotalCosts(db: Executor, items: Record<string, unknown>[]) {
  const ids = items.map((item) => item.id as number);
  const sums = await db
    .select({ id: incidentCost.incident_id, total: sql<number>`sum(${incidentCost.amount} ORDER BY ${incidentCost.id})` })
    .from(incidentCost)
    .where(sql`${incidentCost.incident_id} = ANY(${sql.param(ids)}::int[])`)
    .groupBy(incidentCost.incident_id);
  const byId = new Map(sums.map((s) => [s.id, s.total]));
  for (const item of items) item.total_cost = byId.get(item.id as number) ?? 0;
}

/** A dashboard's read of `def`: the shared records once per answer, a column per field, the costs summed once. */
const dashboardOf = (def: ReadDef): ReadDef => {
  const { total_cost: _summed, ...own } = def.own ?? {};
  return { ...def, own, hooked: ['total_cost'], hooks: { afterRead: addTotalCosts }, hookTables: [incidentCost], shared: SHARED, flat: true };
};
const dashboardDef = dashboardOf(minimalDef);
const dashboardFullDef = dashboardOf(fullDef);
declareRead(dashboardFullDef, dashboardFull, 'incident-dashboard-full');
declareRead(dashboardDef, dashboardMinimal, 'incident-dashboard');

/** The timeline entries a person writes (a note, a chat message), as opposed to those the system writes. */
const WRITTEN = sql.raw(`('Custom event', 'Imported message')`);

/**
 * When a responder last said something: the newest report (tactical or executive) or timeline entry a
 * person wrote, in UTC as the other times read. Two index scans (report_incident_type_idx,
 * event_incident_idx), the newest of each.
 */
const lastUpdateAt: OwnField = (at) =>
  sql`to_char(GREATEST(
    (SELECT max(r."created_at") FROM "report" r WHERE r."incident_id" = ${column(at, 'id')}),
    (SELECT max(e."started_at") FROM "event" e WHERE e."incident_id" = ${column(at, 'id')} AND e."type" IN ${WRITTEN})
  ) AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;

/**
 * The fields of the web UI's incidents table (with `expand`): what a row shows, and nothing that grows
 * with the incident (no timeline, no people); of the priority, severity and commander only what the
 * row names. `last_update_at` is the table's own (IncidentTable).
 */
const TABLE = [
  'closed_at',
  'commander.individual.email',
  'incident_priority.name',
  'incident_severity.name',
  'name',
  'project',
  'reported_at',
  'stable_at',
  'status',
  'title',
  'visibility',
];
const TABLE_OWN = ['last_update_at'];
const table = Type.Object(
  { ...projection(IncidentRead, TABLE, 'IncidentTable').properties, last_update_at: IncidentTableOwn.properties.last_update_at },
  { title: 'IncidentTable' },
);
const tableDef: ReadDef = { ...fullDef, own: { ...fullDef.own, last_update_at: lastUpdateAt }, flat: true };
declareRead(tableDef, table, 'incident-table');

/** Whether a list with this `include[]` reads the dashboard's projection, whose whole answers are kept (list/kept-answers.ts). */
export const readsDashboard = (include: string[]): boolean => include.length > 0 && within(include, DASHBOARD);

/** The tables the dashboard's projection reads for `viewer` (readTables). */
export const dashboardTables = (db: Executor, full: boolean, viewer: Viewer) =>
  full ? readTables(db, dashboardFullDef, dashboardFull, viewer) : readTables(db, dashboardDef, dashboardMinimal, viewer);

/** As readIncidents, for a list whose items `include[]` cuts: the dashboard's (or the table's) fields only, when they are all it keeps. */
export async function readIncidentsIncluded(db: Executor, ids: number[], full: boolean, viewer: Viewer, include: string[]) {
  const [def, shape] = within(include, DASHBOARD)
    ? full
      ? [dashboardFullDef, dashboardFull]
      : [dashboardDef, dashboardMinimal]
    : full && within(include, [...TABLE, ...TABLE_OWN])
      ? [tableDef, table]
      : full
        ? [listedFullDef, IncidentRead]
        : [listedMinimalDef, IncidentReadMinimal];
  return inOrder(await readObjects(db, def, shape, ids, viewer, 'checked'), ids) as (IncidentReadT | IncidentReadMinimalT)[];
}

const inOrder = <T extends { id?: unknown }>(rows: T[], ids: number[]) => {
  const byId = new Map(rows.map((r) => [r.id as number, r]));
  return ids.map((id) => byId.get(id)).filter((x): x is T => !!x);
};

/** GET incident: IncidentRead, if the caller may see it (else undefined). */
export async function readIncidentFor(ctx: Ctx, id: number): Promise<IncidentReadT | undefined> {
  return (await readOneTogether(ctx.db, fullDef, IncidentRead, id, ctx)) as IncidentReadT | undefined;
}
