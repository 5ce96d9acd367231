// What the lifecycle kit needs to know of a kind of record that has people and a timeline: its
// table, the participant column that points at it, the word the timeline uses, and what follows a
// change of its people. Each domain declares its own (incident/kind.ts, case/kind.ts).
import type { RefTarget } from '../../crud/refs.ts';
import type { Executor } from '../../db/connection.ts';
import type { AnyListDefinition } from '../../list/definition.ts';
import type { caseTable, incident } from './table.ts';

export interface RecordKind<T extends typeof incident | typeof caseTable = typeof incident | typeof caseTable> {
  /** The word events use: "added to incident", "removed from case". */
  name: 'incident' | 'case';
  /** The participant (and event) column that holds the record's id. */
  ownerColumn: 'incident_id' | 'case_id';
  table: T;
  /** Runs after any change of the record's people, in the same transaction. */
  peopleChanged?: (tx: Executor, recordId: number) => Promise<void>;
  /**
   * What `filter` reaches from a record (its list): saved search filters (notifications, routing)
   * are evaluated against it.
   */
  list?: AnyListDefinition;
}

/** The event owner of a record of this kind. */
export const ownerOf = (kind: RecordKind, id: number) => (kind.ownerColumn === 'incident_id' ? { incident_id: id } : { case_id: id });

/** The generic reference to a record by id, as other records' bodies and filters name it. */
export const recordTarget = (kind: RecordKind): RefTarget => ({
  table: kind.table,
  model: kind.name === 'incident' ? 'Incident' : 'Case',
  label: kind.name === 'incident' ? 'Incident' : 'Case',
  projectScoped: false,
  fields: { id: 'int', name: 'text', title: 'text', status: 'text', visibility: 'text' },
});
