// The signal instances a case's read nests (dispatch__case__models__SignalInstanceRead): the newest
// of each case with their signal and entities. Apart from the instance reader, which itself reads cases.
import { sql } from 'drizzle-orm';
import { column } from '../../crud/group.ts';
import { groupReader, type OwnField, type ReadDef } from '../../crud/reader.ts';
import { entityGroup } from '../entity/group.ts';
import { signal, signalInstance, signalInstanceEntity } from '../signal/table.ts';

/** How many of a case's instances its read nests: the most recent ones (all of them through the instance list). */
export const CASE_SIGNAL_INSTANCES = 10;

const none: OwnField = () => sql`'[]'::json`;

/** The signal of an instance nested in a case: its columns; its workflow instances are not read there. */
const signalDef: ReadDef = { table: signal, projectScoped: false, own: { workflow_instances: none } };
const signalRef = { table: signal, model: 'Signal', label: 'Signal', projectScoped: false };
const entityRef = { table: entityGroup.table, model: 'Entity', label: 'Entity' };

/** An instance nested in a case: as readCaseSignalInstances reads it, its entities in the order of their ids, no tags. */
const instanceDef: ReadDef = {
  table: signalInstance,
  projectScoped: false,
  refs: { signal: { column: 'signal_id', target: signalRef, read: () => groupReader(signalDef) } },
  links: {
    entities: {
      table: signalInstanceEntity,
      ownerColumn: 'signal_instance_id',
      otherColumn: 'entity_id',
      target: entityRef,
      read: () => groupReader(entityGroup),
    },
  },
  // created_at as PostgreSQL writes a timestamp (the session's DateStyle and TimeZone), as these instances have always read.
  own: { tags: none, created_at: (at) => sql`${column(at, 'created_at')}::text` },
};

/**
 * The newest CASE_SIGNAL_INSTANCES instances of a case as a field of its own read (GET case), newest
 * first: the same objects as readCaseSignalInstances, without a statement of their own.
 */
export const caseSignalInstances: OwnField = (at, read, shape) =>
  read.list(instanceDef, signalInstance, shape, (t) => ({
    from: read.from(t, signalInstance),
    where: sql`${column(t, 'id')} IN (SELECT si.id FROM ${signalInstance} si WHERE si.case_id = ${column(at, 'id')} ORDER BY si.created_at DESC, si.id DESC LIMIT ${sql.raw(String(CASE_SIGNAL_INSTANCES))})`,
    order: sql`${column(t, 'created_at')} DESC, ${column(t, 'id')} DESC`,
  }));
