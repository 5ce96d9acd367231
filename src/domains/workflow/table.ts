// Workflows (a project's runnable procedures in a workflow system, through a workflow plugin
// instance) and their runs. A run belongs to the incident, case or signal it was run for, names the
// participant who ran it, and keeps the artifacts it produced as documents.
import { index, integer, jsonb, pgTable, primaryKey, text, boolean } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { document } from '../document/table.ts';
import { caseTable, incident, participant } from '../lifecycle/table.ts';
import { pluginInstance } from '../plugin/table.ts';
import { projectScoped } from '../project/scoped.ts';
import { signal } from '../signal/table.ts';

export const workflow = pgTable(
  'workflow',
  {
    id: id(),
    ...projectScoped(),
    name: text('name').notNull(),
    description: text('description'),
    enabled: boolean('enabled').notNull().default(true),
    resource_id: text('resource_id').notNull(),
    parameters: jsonb('parameters').notNull().default([]),
    plugin_instance_id: integer('plugin_instance_id')
      .notNull()
      .references(() => pluginInstance.id, { onDelete: 'cascade' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('name', 'description'),
  },
  (t) => [
    index('workflow_project_idx').on(t.project_id),
    index('workflow_organization_idx').on(t.organization_id, t.id),
    index('workflow_search_idx').using('gin', t.search_vector),
  ],
);

export const workflowInstance = pgTable(
  'workflow_instance',
  {
    id: id(),
    ...projectScoped(),
    workflow_id: integer('workflow_id')
      .notNull()
      .references(() => workflow.id, { onDelete: 'cascade' }),
    status: text('status').notNull().default('Submitted'),
    parameters: jsonb('parameters').notNull().default([]),
    run_reason: text('run_reason'),
    /** The run's id in the workflow system, once it has one. */
    resource_id: text('resource_id'),
    resource_type: text('resource_type'),
    weblink: text('weblink'),
    creator_id: integer('creator_id').references(() => participant.id, { onDelete: 'set null' }),
    incident_id: integer('incident_id').references(() => incident.id, { onDelete: 'cascade' }),
    case_id: integer('case_id').references(() => caseTable.id, { onDelete: 'cascade' }),
    signal_id: integer('signal_id').references(() => signal.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [
    index('workflow_instance_workflow_idx').on(t.workflow_id),
    index('workflow_instance_incident_idx').on(t.incident_id),
    index('workflow_instance_case_idx').on(t.case_id),
    index('workflow_instance_organization_idx').on(t.organization_id, t.id),
  ],
);

/** The documents a run produced. */
export const workflowInstanceArtifact = pgTable(
  'workflow_instance_artifact',
  {
    workflow_instance_id: integer('workflow_instance_id')
      .notNull()
      .references(() => workflowInstance.id, { onDelete: 'cascade' }),
    document_id: integer('document_id')
      .notNull()
      .references(() => document.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.workflow_instance_id, t.document_id] }), index('workflow_instance_artifact_document_idx').on(t.document_id)],
);
