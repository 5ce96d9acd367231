// Cost models (beyond 0.1.0, as current Dispatch): what a project's people's activities cost. An
// activity prices each occurrence of a plugin event by a participant as some seconds of work.
import { boolean, index, integer, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { pluginEvent } from '../plugin/table.ts';
import { projectScoped } from '../project/scoped.ts';

export const costModel = pgTable(
  'cost_model',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    enabled: boolean('enabled').notNull().default(true),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'description'),
  },
  (t) => [uniqueIndex('cost_model_project_name_key').on(t.project_id, t.name), index('cost_model_search_idx').using('gin', t.search_vector)],
);

/** One priced plugin event of a cost model; a cost model prices each plugin event once. */
export const costModelActivity = pgTable(
  'cost_model_activity',
  {
    id: id(),
    ...projectScoped(),
    cost_model_id: integer('cost_model_id')
      .notNull()
      .references(() => costModel.id, { onDelete: 'cascade' }),
    plugin_event_id: integer('plugin_event_id')
      .notNull()
      .references(() => pluginEvent.id, { onDelete: 'cascade' }),
    /** The work one occurrence stands for. */
    response_time_seconds: integer('response_time_seconds').notNull().default(300),
    enabled: boolean('enabled').notNull().default(true),
  },
  (t) => [uniqueIndex('cost_model_activity_event_key').on(t.cost_model_id, t.plugin_event_id), index('cost_model_activity_event_idx').on(t.plugin_event_id)],
);
