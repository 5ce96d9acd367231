// Incidents read by id: in full (IncidentRead) and minimal (IncidentReadMinimal, for lists and for
// incidents nested in tasks, feedback and duplicates). Each kind of nested record is one query per
// response. These readers do not check visibility: callers read only incidents the caller may see
// (visibility.ts), and `hideDuplicates` drops duplicates the caller may not.
import { desc, inArray } from 'drizzle-orm';
import type { RefTarget } from '../../crud/refs.ts';
import { groupReader, shallowReader, type ReadDef } from '../../crud/reader.ts';
import type { Reader } from '../../crud/group.ts';
import type { Executor } from '../../db/connection.ts';
import { readColumns } from '../../db/columns.ts';
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
import { participant } from '../participant/table.ts';
import { participantMinimalReader, participantReader, participantTarget } from '../participant/reader.ts';
import { tagReader, tagTarget } from '../tag/group.ts';
import { termGroup } from '../term/group.ts';
import { term } from '../term/table.ts';
import { task, taskAssignee } from '../task/table.ts';
import { incident, incidentDuplicate, incidentTag, incidentTerm } from './table.ts';

export const incidentTarget: RefTarget = {
  table: incident,
  model: 'Incident',
  label: 'Incident',
  projectScoped: false,
  fields: { id: 'int', name: 'text', title: 'text', status: 'text', visibility: 'text' },
};
export const termTarget: RefTarget = { table: term, model: 'Term', label: 'Term', nameColumn: 'text', fields: { id: 'int', text: 'text', discoverable: 'bool' } };

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
};

const duplicatesLink = (read: () => Reader) => ({ table: incidentDuplicate, ownerColumn: 'incident_id', otherColumn: 'duplicate_id', target: incidentTarget, read });

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
};

/** The newest report of each type, and the timeline in order, for the incidents read. */
async function reportsAndEvents(db: Executor, items: Record<string, unknown>[]) {
  const ids = items.map((i) => i.id as number);
  const events = await db.select(readColumns(event)).from(event).where(inArray(event.incident_id, ids)).orderBy(event.started_at, event.created_at);
  const reports = await db.select(readColumns(report)).from(report).where(inArray(report.incident_id, ids)).orderBy(desc(report.created_at), desc(report.id));
  for (const item of items) {
    item.events = events.filter((e) => e.incident_id === item.id);
    item.last_executive_report = reports.find((r) => r.incident_id === item.id && r.type === 'Executive Report') ?? null;
    item.last_tactical_report = reports.find((r) => r.incident_id === item.id && r.type === 'Tactical Report') ?? null;
    // Not served yet: cases, documents linked to incidents, workflows.
    item.cases = [];
    item.documents = [];
    item.workflow_instances = [];
  }
}

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
  },
  children: {
    participants: { table: participant, column: 'incident_id', read: participantReader },
    tasks: { table: task, column: 'incident_id', read: () => groupReader(taskDef) },
    incident_costs: costsChild,
  },
  hooks: {
    afterRead: async (db, items) => {
      totalCost(items);
      await reportsAndEvents(db, items);
    },
  },
};

/** IncidentReadMinimal by incident id. */
export const incidentMinimalReader = () => groupReader(minimalDef);
/** IncidentRead by incident id. */
export const incidentReader = () => groupReader(fullDef);

/** Read objects for ids, in their order, skipping ids not found. */
export async function readIncidents(db: Executor, ids: number[], full: boolean) {
  const byId = await (full ? incidentReader() : incidentMinimalReader())(db, ids);
  return ids.map((id) => byId.get(id)).filter((x): x is Record<string, unknown> => !!x);
}
