// The table of a ranked lookup record (incident and case priorities and severities): the same
// columns and indexes for all four, plus each one's own flags.
import { boolean, index, integer, pgTable, text, uniqueIndex, type PgColumnBuilderBase } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../db/columns.ts';
import { projectScoped } from '../domains/project/scoped.ts';

export function rankedTable<E extends Record<string, PgColumnBuilderBase>>(name: string, extra: E) {
  return pgTable(
    name,
    {
      id: id(),
      ...projectScoped(),
      name: text('name').notNull(),
      description: text('description'),
      color: text('color'),
      default: boolean('default').notNull().default(false),
      enabled: boolean('enabled').notNull().default(true),
      view_order: integer('view_order').notNull().default(9999),
      ...extra,
      created_at: createdAt(),
      updated_at: updatedAt(),
      search_vector: searchVector('name', 'description'),
    },
    (t) => [uniqueIndex(`${name}_project_name_key`).on(t.project_id, t.name), index(`${name}_search_idx`).using('gin', t.search_vector)],
  );
}
