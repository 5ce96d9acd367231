import { boolean, doublePrecision, index, integer, jsonb, pgTable, text, uniqueIndex, type AnyPgColumn } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, timestampCol, updatedAt } from '../../db/columns.ts';
import { linkTable, projectScoped } from '../project/scoped.ts';
import { service } from '../service/table.ts';
import { tag } from '../tag/table.ts';

/** The five lookup tables describing a data source share one shape. */
function sourceMetadata(name: string) {
  return pgTable(
    name,
    {
      id: id(),
      ...projectScoped(),
      name: text('name').notNull(),
      description: text('description'),
      created_at: createdAt(),
      updated_at: updatedAt(),
      search_vector: searchVector('name'),
    },
    (t) => [uniqueIndex(`${name}_project_name_key`).on(t.project_id, t.name), index(`${name}_search_idx`).using('gin', t.search_vector)],
  );
}

export const sourceDataFormat = sourceMetadata('source_data_format');
export const sourceEnvironment = sourceMetadata('source_environment');
export const sourceStatus = sourceMetadata('source_status');
export const sourceTransport = sourceMetadata('source_transport');
export const sourceType = sourceMetadata('source_type');

const lookup = (column: string, table: { id: AnyPgColumn }) => integer(column).references(() => table.id, { onDelete: 'set null' });

export const source = pgTable(
  'source',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    documentation: text('documentation'),
    external_id: text('external_id'),
    source_schema: text('source_schema'),
    aggregated: boolean('aggregated').notNull().default(false),
    cost: doublePrecision('cost'),
    delay: integer('delay'),
    retention: integer('retention'),
    size: integer('size'),
    sampling_rate: integer('sampling_rate'),
    links: jsonb('links').notNull().default([]),
    data_last_loaded_at: timestampCol('data_last_loaded_at'),
    owner_id: lookup('owner_id', service),
    source_data_format_id: lookup('source_data_format_id', sourceDataFormat),
    source_environment_id: lookup('source_environment_id', sourceEnvironment),
    source_status_id: lookup('source_status_id', sourceStatus),
    source_transport_id: lookup('source_transport_id', sourceTransport),
    source_type_id: lookup('source_type_id', sourceType),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name'),
  },
  (t) => [uniqueIndex('source_project_name_key').on(t.project_id, t.name), index('source_search_idx').using('gin', t.search_vector)],
);

export const sourceTag = linkTable('source_tag', ['source_id', source], ['tag_id', tag]);
