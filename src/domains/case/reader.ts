// Cases read by id: in full (CaseRead: get, create, update) and minimal (CaseReadMinimal: lists,
// related and duplicate cases). The readers read on behalf of a viewer: cases and incidents they
// may not see are left out at every depth.
import type { Static } from '@sinclair/typebox';
import type { Executor } from '../../db/connection.ts';
import { recordTarget } from '../lifecycle/kind.ts';
import { CASE } from './kind.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { narrowRead } from '../../crud/narrow.ts';
import { groupReader, jsonColumns, readChecked, type DocumentField, type ReadDef, type SpliceSource } from '../../crud/reader.ts';
import { column } from '../../crud/group.ts';
import { documentResponse, readDocuments, listItemsText } from '../../crud/document.ts';
import type { Ctx } from '../../server/context.ts';
import { withoutKeywords } from '../../server/shapes.ts';
import { sql } from 'drizzle-orm';
import fastJson from 'fast-json-stringify';
import type { Reader } from '../../crud/group.ts';
import type { Viewer } from '../../server/viewer.ts';
import { casePriorityGroup, casePriorityTarget } from '../case_priority/group.ts';
import { caseSeverityGroup, caseSeverityTarget } from '../case_severity/group.ts';
import { caseTypeGroup, caseTypeTarget } from '../case_type/group.ts';
import { event } from '../event/table.ts';
import { incidentMinimalReader, incidentTarget } from '../incident/reader.ts';
import { participantMinimalReader, participantReader, participantTarget } from '../participant/reader.ts';
import { participant } from '../lifecycle/table.ts';
import { readCaseSignalInstances } from '../signal/case-instances.ts';
import { tagReader, tagTarget } from '../tag/group.ts';
import { addCaseCosts } from './costs.ts';
import { CaseRead, CaseReadMinimal } from './schema.ts';
import { caseDuplicate, caseRelated, caseTag } from './table.ts';
import { caseIncident, caseTable } from '../lifecycle/table.ts';
import { workflowInstanceReader } from '../workflow/reader.ts';
import { workflowInstance } from '../workflow/table.ts';

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

/** A related or duplicate case nested in a minimal case: its own related and duplicates are not read. */
const nestedDef: ReadDef = {
  table: caseTable,
  refs: { ...assessment, assignee: { column: 'assignee_id', target: participantTarget, read: participantMinimalReader } },
  links: { incidents: incidentsLink },
  hooks: {
    afterRead: (_db, items) => {
      for (const item of items) {
        item.related = [];
        item.duplicates = [];
      }
    },
  },
  document: { related: () => sql`'[]'`, duplicates: () => sql`'[]'` },
};

/** The costs of cases by id, for spliced fields of one-statement reads (they depend on the clock). */
const costsOf: SpliceSource<Record<string, unknown>> = async (db, ids) => {
  const items: Record<string, unknown>[] = ids.map((id) => ({ id }));
  await addCaseCosts(db, items);
  return new Map(items.map((item) => [item.id as number, item]));
};
const costText =
  (field: 'total_cost_classic' | 'total_cost_new'): DocumentField =>
  (at, doc) =>
    doc.splice(at, costsOf, (costs) => String(costs?.[field] ?? 0));
const costFields = { total_cost_classic: costText('total_cost_classic'), total_cost_new: costText('total_cost_new') };

const minimalDef: ReadDef = {
  table: caseTable,
  refs: { ...assessment, assignee: { column: 'assignee_id', target: participantTarget, read: participantMinimalReader } },
  links: {
    incidents: incidentsLink,
    related: caseLink(caseRelated, 'related_id', () => groupReader(nestedDef)),
    duplicates: caseLink(caseDuplicate, 'duplicate_id', () => groupReader(nestedDef)),
  },
  hooks: { afterRead: (db, items) => addCaseCosts(db, items) },
  document: costFields,
};

/** The timeline in order, as JSON built in the read's query. */
const eventsOf = (caseAlias: string) =>
  `COALESCE((SELECT json_agg(${jsonColumns(event, 'ev')} ORDER BY ev."started_at", ev."created_at") FROM "event" ev WHERE ev."case_id" = ${caseAlias}."id"), '[]'::json)`;

/** The newest signal instances unless left out, for the cases read. */
async function instancesAndPlugins(db: Executor, items: Record<string, unknown>[], withInstances: boolean) {
  const ids = items.map((i) => i.id as number);
  const instances = withInstances ? await readCaseSignalInstances(db, ids) : new Map<number, Record<string, unknown>[]>();
  for (const item of items) {
    item.signal_instances = instances.get(item.id as number) ?? [];
    // Not served yet: documents and groups made by plugins.
    item.documents = [];
    item.groups = [];
  }
}

/** A case's newest signal instances, spliced into one-statement reads as the shape's serializer writes them. */
const instancesText: DocumentField = (at, doc, shape) => {
  const write = fastJson(shape as object);
  return doc.splice(at, readCaseSignalInstances, (instances) => write(instances ?? []));
};

const fullDef = (withInstances: boolean): ReadDef => ({
  table: caseTable,
  refs: {
    ...assessment,
    assignee: { column: 'assignee_id', target: participantTarget, read: participantReader },
    // Beyond 0.1.0, for the web UI's case page, as incidents have theirs.
    reporter: { column: 'reporter_id', target: participantTarget, read: participantReader },
  },
  links: {
    tags: { table: caseTag, ownerColumn: 'case_id', otherColumn: 'tag_id', target: tagTarget, read: tagReader },
    incidents: incidentsLink,
    related: caseLink(caseRelated, 'related_id', () => groupReader(minimalDef)),
    duplicates: caseLink(caseDuplicate, 'duplicate_id', () => groupReader(minimalDef)),
  },
  children: {
    participants: { table: participant, column: 'case_id', read: participantReader },
    workflow_instances: { table: workflowInstance, column: 'case_id', read: workflowInstanceReader },
  },
  computed: { events: eventsOf },
  hooks: {
    afterRead: async (db, items) => {
      await instancesAndPlugins(db, items, withInstances);
      await addCaseCosts(db, items);
    },
  },
  document: {
    ...costFields,
    documents: () => sql`'[]'`,
    groups: () => sql`'[]'`,
    signal_instances: withInstances ? instancesText : () => sql`'[]'`,
    events: (at, doc, shape) =>
      doc.many({ table: event, projectScoped: false }, event, shape, (t) => ({
        from: doc.from(t, event),
        where: sql`${column(t, 'case_id')} = ${column(at, 'id')}`,
        order: sql`${column(t, 'started_at')}, ${column(t, 'created_at')}`,
      })),
  },
});
const withInstances = fullDef(true);
const withoutInstances = fullDef(false);

export type CaseReadT = Static<typeof CaseRead>;
export type CaseReadMinimalT = Static<typeof CaseReadMinimal>;

/** CaseReadMinimal by case id. */
export const caseMinimalReader = () => groupReader(minimalDef, CaseReadMinimal);
/** CaseRead by case id. */
export const caseReader = () => groupReader(withInstances, CaseRead);

/**
 * Which read: `full` (CaseRead), `minimal` (CaseReadMinimal), or `in-instance`: CaseRead with
 * `signal_instances` left empty, for the case nested in a signal instance (its other instances, each
 * with its raw document, would multiply the size of every ingestion's answer).
 */
export type CaseShape = 'full' | 'minimal' | 'in-instance';

/** The shapes that read as CaseRead (`true` is `full`, `false` is `minimal`). */
type FullShape = true | 'full' | 'in-instance';

const inOrder = <T>(byId: Map<number, T>, ids: number[]) => ids.map((id) => byId.get(id)).filter((x): x is T => !!x);

/**
 * Read objects of cases the caller has found `viewer` may see (or has just written), in their order,
 * with the related and duplicate cases and the incidents they may not see left out, at every level.
 */
export async function readVisibleCases(viewer: Viewer, db: Executor, ids: number[], shape: FullShape): Promise<CaseReadT[]>;
export async function readVisibleCases(viewer: Viewer, db: Executor, ids: number[], shape: false | 'minimal'): Promise<CaseReadMinimalT[]>;
export async function readVisibleCases(viewer: Viewer, db: Executor, ids: number[], shape: CaseShape | boolean): Promise<CaseReadT[] | CaseReadMinimalT[]>;
export async function readVisibleCases(viewer: Viewer, db: Executor, ids: number[], shape: CaseShape | boolean): Promise<CaseReadT[] | CaseReadMinimalT[]> {
  if (shape === true || shape === 'full') return inOrder(await readChecked(caseReader(), db, ids, viewer), ids);
  if (shape === 'in-instance') return inOrder(await readChecked(groupReader(withoutInstances, CaseRead), db, ids, viewer), ids);
  return inOrder(await readChecked(caseMinimalReader(), db, ids, viewer), ids);
}

/**
 * Minimal read objects as readVisibleCases reads them, for a list whose items `include[]` cuts:
 * only the nested records the kept fields need are read (the web UI's dashboard keeps no assignee).
 */
export async function readVisibleCasesIncluded(viewer: Viewer, db: Executor, ids: number[], include: string[]): Promise<CaseReadMinimalT[]> {
  return inOrder(await readChecked(groupReader(narrowRead(minimalDef, include), CaseReadMinimal), db, ids, viewer), ids);
}

/** GET case's answer: CaseRead as text PostgreSQL writes, or the readers' (`readers`). */
export const caseResponse = (ctx: Ctx, id: number, readers: () => Promise<CaseReadT>) => documentResponse(withInstances, CaseRead, ctx, id, readers);

/** A list's item shape, as the case list route serializes its items (includeShape: nothing required, no defaults). */
const listItem = withoutKeywords(CaseReadMinimal, ['required', 'default']);

/**
 * A list page's minimal items as the text PostgreSQL writes (cut to `include[]`), for cases the list
 * found the viewer may see; undefined when the readers must read them.
 */
export const caseItemsText = (db: Executor, ids: number[], viewer: Viewer, include: string[]) => listItemsText(minimalDef, listItem, db, ids, viewer, include);

/** CaseRead texts PostgreSQL writes for cases found visible to `viewer`, in order; undefined when the readers must read them. */
export const caseTexts = (db: Executor, ids: number[], viewer: Viewer) => readDocuments(withInstances, CaseRead, db, ids, viewer);
