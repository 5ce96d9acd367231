// Incidents read by id: in full (IncidentRead) and minimal (IncidentReadMinimal, for lists and for
// incidents nested in tasks, feedback and duplicates). Each kind of nested record is one query per
// response (one query for all of them where the readers allow, crud/reader.ts). The readers read
// on behalf of a viewer: incidents and cases they may not see are left out at every depth.
import type { RefTarget } from '../../crud/refs.ts';
import { sql } from 'drizzle-orm';
import { documentResponse, numberText, readDocuments, listItemsText } from '../../crud/document.ts';
import { withoutKeywords } from '../../server/shapes.ts';
import type { Ctx } from '../../server/context.ts';
import { column } from '../../crud/group.ts';
import { narrowRead } from '../../crud/narrow.ts';
import { groupReader, jsonColumns, readChecked, shallowReader, type DocumentField, type ReadDef } from '../../crud/reader.ts';
import type { Reader } from '../../crud/group.ts';
import type { Static } from '@sinclair/typebox';
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
import { incidentType } from '../incident_type/table.ts';
import { participant } from '../lifecycle/table.ts';
import { participantMinimalReader, participantReader, participantTarget } from '../participant/reader.ts';
import { tagReader, tagTarget } from '../tag/group.ts';
import { termGroup } from '../term/group.ts';
import { task, taskAssignee } from '../task/table.ts';
import { termTarget } from '../term/target.ts';
import { workflowInstanceReader } from '../workflow/reader.ts';
import { workflowInstance } from '../workflow/table.ts';
import { IncidentRead, IncidentReadMinimal } from './schema.ts';
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

/** Columns only the full read has: a minimal read, serialized by a permissive list shape, leaves them out. */
const FULL_ONLY = ['conference', 'conversation', 'storage', 'ticket'];
function minimalOnly(items: Record<string, unknown>[]) {
  for (const item of items) for (const key of FULL_ONLY) delete item[key];
}

/** Fields a def's one-statement read leaves out, as its hooks delete them. */
const leftOut = (fields: string[]): Record<string, DocumentField> => Object.fromEntries(fields.map((f) => [f, () => undefined]));

/** total_cost in the one-statement read: the costs' sum in the order the readers add them. */
const totalCostText: DocumentField = (at) =>
  numberText(sql`(SELECT COALESCE(sum(c."amount" ORDER BY c."id"), 0) FROM "incident_cost" c WHERE c."incident_id" = ${column(at, 'id')})`);

/** total_cost: the sum of the costs just nested. */
function totalCost(items: Record<string, unknown>[]) {
  for (const item of items) item.total_cost = ((item.incident_costs as { amount: number }[]) ?? []).reduce((sum, c) => sum + c.amount, 0);
}

const minimalRefs = (participants: () => Reader): ReadDef['refs'] => ({
  incident_priority: { column: 'incident_priority_id', target: incidentPriorityTarget, read: () => shallowReader(incidentPriority) },
  incident_severity: { column: 'incident_severity_id', target: incidentSeverityTarget, read: () => shallowReader(incidentSeverity) },
  incident_type: { column: 'incident_type_id', target: incidentTypeTarget, read: () => shallowReader(incidentType) },
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
  hooks: {
    afterRead: (_db, items) => {
      totalCost(items);
      minimalOnly(items);
      for (const item of items) item.duplicates = [];
    },
  },
  document: { total_cost: totalCostText, duplicates: () => sql`'[]'`, ...leftOut(FULL_ONLY) },
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
  hooks: {
    afterRead: (_db, items) => {
      totalCost(items);
      minimalOnly(items);
    },
  },
  document: { total_cost: totalCostText, ...leftOut(FULL_ONLY) },
};

/** The timeline in order, and the newest report of each type, as JSON built in the read's query. */
const eventsOf = (incidentAlias: string) =>
  `COALESCE((SELECT json_agg(${jsonColumns(event, 'ev')} ORDER BY ev."started_at", ev."created_at") FROM "event" ev WHERE ev."incident_id" = ${incidentAlias}."id"), '[]'::json)`;
const lastReport = (type: string) => (incidentAlias: string) =>
  `(SELECT ${jsonColumns(report, 'rp')} FROM "report" rp WHERE rp."incident_id" = ${incidentAlias}."id" AND rp."type" = '${type}' ORDER BY rp."created_at" DESC, rp."id" DESC LIMIT 1)`;

const eventDef: ReadDef = { table: event, projectScoped: false };
const reportDef: ReadDef = { table: report, projectScoped: false };
const lastReportText =
  (type: string): DocumentField =>
  (at, doc, shape) =>
    doc.latest(
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
  read: () => shallowReader(caseTable, { id: caseTable.id, name: caseTable.name }),
};

const fullDef: ReadDef = {
  table: incident,
  refs: {
    incident_priority: { column: 'incident_priority_id', target: incidentPriorityTarget, read: () => groupReader(incidentPriorityGroup) },
    incident_severity: { column: 'incident_severity_id', target: incidentSeverityTarget, read: () => groupReader(incidentSeverityGroup) },
    incident_type: { column: 'incident_type_id', target: incidentTypeTarget, read: () => groupReader(incidentTypeGroup) },
    commander: { column: 'commander_id', target: participantTarget, read: participantReader },
    reporter: { column: 'reporter_id', target: participantTarget, read: participantReader },
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
  computed: {
    events: eventsOf,
    last_executive_report: lastReport('Executive Report'),
    last_tactical_report: lastReport('Tactical Report'),
  },
  hooks: {
    afterRead: (_db, items) => {
      totalCost(items);
      for (const item of items) {
        // Not served yet: documents linked to incidents.
        item.documents = [];
        // The channel is kept on the incident (conversation/room.ts), where Dispatch keeps a row with an id of its own: the incident's stands in.
        if (item.conversation) item.conversation = { ...(item.conversation as object), id: item.id };
      }
    },
  },
  document: {
    total_cost: totalCostText,
    documents: () => sql`'[]'`,
    // A channel gets the incident's id as its own (above): the readers write it.
    conversation: (at) => sql`CASE WHEN ${column(at, 'conversation')} IS NULL THEN 'null' ELSE chr(1) END`,
    events: (at, doc, shape) =>
      doc.many(eventDef, event, shape, (t) => ({
        from: doc.from(t, event),
        where: sql`${column(t, 'incident_id')} = ${column(at, 'id')}`,
        order: sql`${column(t, 'started_at')}, ${column(t, 'created_at')}`,
      })),
    last_executive_report: lastReportText('Executive Report'),
    last_tactical_report: lastReportText('Tactical Report'),
  },
};

export type IncidentReadT = Static<typeof IncidentRead>;
export type IncidentReadMinimalT = Static<typeof IncidentReadMinimal>;

/** IncidentReadMinimal by incident id. */
export const incidentMinimalReader = () => groupReader(minimalDef, IncidentReadMinimal);
/** IncidentRead by incident id. */
export const incidentReader = () => groupReader(fullDef, IncidentRead);

/**
 * Read objects for ids, in their order, skipping ids not found (IncidentRead if `full`, else
 * IncidentReadMinimal): incidents the caller has found `viewer` may see (or has just written), with
 * what they nest narrowed to what `viewer` may see.
 */
export async function readIncidents(db: Executor, ids: number[], full: true, viewer: Viewer): Promise<IncidentReadT[]>;
export async function readIncidents(db: Executor, ids: number[], full: boolean, viewer: Viewer): Promise<IncidentReadT[] | IncidentReadMinimalT[]>;
export async function readIncidents(db: Executor, ids: number[], full: boolean, viewer: Viewer): Promise<IncidentReadT[] | IncidentReadMinimalT[]> {
  return full ? inOrder(await readChecked(incidentReader(), db, ids, viewer), ids) : inOrder(await readChecked(incidentMinimalReader(), db, ids, viewer), ids);
}

/**
 * As readIncidents, for a list whose items `include[]` cuts: only the nested records the kept
 * fields need are read (the web UI's dashboard keeps no people, only the total of the costs).
 */
export async function readIncidentsIncluded(db: Executor, ids: number[], full: boolean, viewer: Viewer, include: string[]) {
  const def = narrowRead(full ? fullDef : minimalDef, include, { total_cost: ['incident_costs'] });
  const shape = full ? IncidentRead : IncidentReadMinimal;
  return inOrder(await readChecked(groupReader(def, shape), db, ids, viewer), ids);
}

const inOrder = <T>(byId: Map<number, T>, ids: number[]) => ids.map((id) => byId.get(id)).filter((x): x is T => !!x);

/** GET incident's answer: IncidentRead as text PostgreSQL writes, or the readers' (`readers`). */
export const incidentResponse = (ctx: Ctx, id: number, readers: () => Promise<IncidentReadT>) => documentResponse(fullDef, IncidentRead, ctx, id, readers);

/** A list's item shape, as the list route serializes its items (includeShape: nothing required, no defaults). */
const listItem = withoutKeywords(IncidentRead, ['required', 'default']);

/**
 * A list page's items as the text PostgreSQL writes (minimal, full with `full`, cut to `include[]`),
 * for incidents the list found the viewer may see; undefined when the readers must read them.
 */
export const incidentItemsText = (db: Executor, ids: number[], full: boolean, viewer: Viewer, include: string[]) =>
  listItemsText(full ? fullDef : minimalDef, listItem, db, ids, viewer, include);

/** IncidentRead texts PostgreSQL writes for incidents found visible to `viewer`, in order; undefined when the readers must read them. */
export const incidentTexts = (db: Executor, ids: number[], viewer: Viewer) => readDocuments(fullDef, IncidentRead, db, ids, viewer);
