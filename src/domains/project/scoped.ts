// Column sets shared by the record tables of many domains: the tenant columns of a record that
// belongs to a project, evergreen reminders, many-to-many links.
import { boolean, index, integer, pgTable, primaryKey, text, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { organization } from '../organization/table.ts';
import { project } from './table.ts';
import { organizationId, timestampCol } from '../../db/columns.ts';

/**
 * The tenant columns of a record that belongs to a project: the organization (for scoping and
 * sharding) and the project, both removed with their owner.
 */
export const projectScoped = () => ({
  organization_id: organizationId().references((): AnyPgColumn => organization.id, { onDelete: 'cascade' }),
  project_id: integer('project_id')
    .notNull()
    .references((): AnyPgColumn => project.id, { onDelete: 'cascade' }),
});

/** Documents, services, teams and notifications remind their owner to review them. */
export const evergreenColumns = () => ({
  evergreen: boolean('evergreen').notNull().default(false),
  evergreen_owner: text('evergreen_owner'),
  evergreen_reminder_interval: integer('evergreen_reminder_interval').notNull().default(90),
  evergreen_last_reminder_at: timestampCol('evergreen_last_reminder_at'),
});

type WithId = { id: AnyPgColumn };

/**
 * A many-to-many link between two tables: rows go with either side, so deleting a tag detaches
 * it from the queries that carried it.
 */
export function linkTable(name: string, left: [string, WithId], right: [string, WithId]) {
  const [l, lt] = left;
  const [r, rt] = right;
  return pgTable(
    name,
    {
      [l]: integer(l)
        .notNull()
        .references(() => lt.id, { onDelete: 'cascade' }),
      [r]: integer(r)
        .notNull()
        .references(() => rt.id, { onDelete: 'cascade' }),
    } as Record<string, ReturnType<typeof integer>>,
    (t) => [primaryKey({ columns: [t[l], t[r]] as [never, never] }), index(`${name}_${r}_idx`).on(t[r])],
  );
}
