import { boolean, index, jsonb, pgTable, text, uniqueIndex, integer } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { projectScoped } from '../project/scoped.ts';
import { costModel } from '../cost_model/table.ts';
import { document } from '../document/table.ts';

const templateDocument = (name: string) => integer(name).references(() => document.id, { onDelete: 'set null' });

export const incidentType = pgTable(
  'incident_type',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    visibility: text('visibility'),
    default: boolean('default').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    exclude_from_metrics: boolean('exclude_from_metrics').notNull().default(false),
    plugin_metadata: jsonb('plugin_metadata').notNull().default([]),
    incident_template_document_id: templateDocument('incident_template_document_id'),
    executive_template_document_id: templateDocument('executive_template_document_id'),
    review_template_document_id: templateDocument('review_template_document_id'),
    tracking_template_document_id: templateDocument('tracking_template_document_id'),
    /** Beyond 0.1.0: what the activities on records of this type cost; a deleted model leaves the type without one. */
    cost_model_id: integer('cost_model_id').references(() => costModel.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name'),
  },
  (t) => [uniqueIndex('incident_type_project_name_key').on(t.project_id, t.name), index('incident_type_search_idx').using('gin', t.search_vector)],
);
