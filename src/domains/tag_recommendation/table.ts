// A project's tag model (BEHAVIOR §10.1): for each tag, the tags most often found with it on the
// same incidents (or cases), by Jaccard similarity. Built by the tag model task and on first use.
import { integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { id, timestampCol } from '../../db/columns.ts';
import { projectScoped } from '../project/scoped.ts';

export const tagModel = pgTable(
  'tag_model',
  {
    id: id(),
    ...projectScoped(),
    /** The records it was built from: `incident` or `case`. */
    model_name: text('model_name').notNull(),
    /** Tag id -> its neighbours, best first: [[tag id, similarity], ...]. */
    neighbours: jsonb('neighbours').notNull().default({}),
    records: integer('records').notNull().default(0),
    built_at: timestampCol('built_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('tag_model_project_model_key').on(t.project_id, t.model_name)],
);
