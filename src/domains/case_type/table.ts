import { boolean, index, integer, jsonb, pgTable, text, uniqueIndex } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { projectScoped } from '../project/scoped.ts';
import { costModel } from '../cost_model/table.ts';
import { document } from '../document/table.ts';
import { incidentType } from '../incident_type/table.ts';
import { service } from '../service/table.ts';

export const caseType = pgTable(
  'case_type',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    visibility: text('visibility'),
    conversation_target: text('conversation_target'),
    default: boolean('default').notNull().default(false),
    enabled: boolean('enabled').notNull().default(true),
    exclude_from_metrics: boolean('exclude_from_metrics').notNull().default(false),
    plugin_metadata: jsonb('plugin_metadata').notNull().default([]),
    case_template_document_id: integer('case_template_document_id').references(() => document.id, { onDelete: 'set null' }),
    incident_type_id: integer('incident_type_id').references(() => incidentType.id, { onDelete: 'set null' }),
    oncall_service_id: integer('oncall_service_id').references(() => service.id, { onDelete: 'set null' }),
    /** Beyond 0.1.0: what the activities on records of this type cost; a deleted model leaves the type without one. */
    cost_model_id: integer('cost_model_id').references(() => costModel.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name'),
  },
  (t) => [uniqueIndex('case_type_project_name_key').on(t.project_id, t.name), index('case_type_search_idx').using('gin', t.search_vector)],
);
