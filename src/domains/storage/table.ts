import { customType, index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id } from '../../db/columns.ts';
import { caseTable, incident } from '../lifecycle/table.ts';
import { projectScoped } from '../project/scoped.ts';

/** Bytes: a Buffer in, a Buffer out (PGlite answers a Uint8Array). */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => 'bytea',
  fromDriver: (v) => (Buffer.isBuffer(v) ? v : Buffer.from(v)),
});

/** A file attached to an incident or a case, its bytes kept here (Muster's own storage plugin). */
export const recordFile = pgTable(
  'record_file',
  {
    id: id(),
    ...projectScoped(),
    incident_id: integer('incident_id').references(() => incident.id, { onDelete: 'cascade' }),
    case_id: integer('case_id').references(() => caseTable.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** What Muster found the bytes to be, not what the client said. */
    content_type: text('content_type').notNull(),
    size: integer('size').notNull(),
    content: bytea('content').notNull(),
    creator: text('creator').notNull(),
    created_at: createdAt(),
  },
  (t) => [index('record_file_incident_idx').on(t.incident_id), index('record_file_case_idx').on(t.case_id)],
);
