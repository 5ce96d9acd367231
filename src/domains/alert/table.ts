import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, organizationId, searchVector, updatedAt } from '../../db/columns.ts';
import { organization } from '../organization/table.ts';
import { source } from '../source/table.ts';

/** An alert definition of a data source. Alerts belong to the organization, not to a project. */
export const alert = pgTable(
  'alert',
  {
    id: id(),
    organization_id: organizationId().references(() => organization.id, { onDelete: 'cascade' }),
    name: text('name'),
    description: text('description'),
    external_link: text('external_link'),
    originator: text('originator'),
    source_id: integer('source_id').references(() => source.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name'),
  },
  (t) => [index('alert_organization_idx').on(t.organization_id), index('alert_source_idx').on(t.source_id)],
);
