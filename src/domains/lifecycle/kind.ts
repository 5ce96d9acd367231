// What the lifecycle kit needs to know of a kind of record that has people and a timeline. Its rows
// (the table, the participant column that points at it, the word the timeline uses) are the kit's
// own: enough to find a record, its people and its events, and to decide who may see it, for code
// that names an incident or a case without acting on its people (workflows, links between records).
// What follows a change of a kind's people and its list are its domain's: incident/kind.ts and
// case/kind.ts declare INCIDENT and CASE from these rows.
import type { RefTarget } from '../../crud/refs.ts';
import type { Executor } from '../../db/connection.ts';
import type { AnyListDefinition } from '../../list/definition.ts';
import { caseTable, incident } from './table.ts';

export interface RecordRows<T extends typeof incident | typeof caseTable = typeof incident | typeof caseTable> {
  /** The word events use: "added to incident", "removed from case". */
  name: 'incident' | 'case';
  /** The participant (and event) column that holds the record's id. */
  ownerColumn: 'incident_id' | 'case_id';
  table: T;
}

export const INCIDENT_ROWS: RecordRows<typeof incident> = { name: 'incident', ownerColumn: 'incident_id', table: incident };
export const CASE_ROWS: RecordRows<typeof caseTable> = { name: 'case', ownerColumn: 'case_id', table: caseTable };

export interface RecordKind<T extends typeof incident | typeof caseTable = typeof incident | typeof caseTable> extends RecordRows<T> {
  /** Runs after any change of the record's people, in the same transaction. */
  peopleChanged?: (tx: Executor, recordId: number) => Promise<void>;
  /** What `filter` reaches from a record of this kind: saved search filters are matched against it. */
  list: AnyListDefinition;
}

/** The event owner of a record of this kind. */
export const ownerOf = (kind: RecordRows, id: number) => (kind.ownerColumn === 'incident_id' ? { incident_id: id } : { case_id: id });

/** The generic reference to a record by id, as other records' bodies and filters name it. */
export const recordTarget = (kind: RecordRows): RefTarget => ({
  table: kind.table,
  model: kind.name === 'incident' ? 'Incident' : 'Case',
  label: kind.name === 'incident' ? 'Incident' : 'Case',
  projectScoped: false,
  fields: { id: 'int', name: 'text', title: 'text', status: 'text', visibility: 'text' },
});
