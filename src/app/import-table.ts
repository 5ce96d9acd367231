// Where each record brought from Dispatch went: `muster import dispatch` looks a source row up here
// to update the record it made before instead of making another, and to follow links between rows.
import { integer, pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const importSource = pgTable(
  'import_source',
  {
    /** `dispatch_core` or the organization schema (`dispatch_organization_<slug>`) the row came from. */
    scope: text('scope').notNull(),
    /** Muster's table the row went to. */
    kind: text('kind').notNull(),
    source_id: text('source_id').notNull(),
    target_id: integer('target_id').notNull(),
    imported_at: timestamp('imported_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.scope, t.kind, t.source_id] })],
);
