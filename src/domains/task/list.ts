// What a task list may filter and sort on: the task's own fields, its project and incident (one
// each), the incident's priority and type, and the people on it: `Creator`, `Owner`, `Assignee`
// (as the web UI names them) or `IndividualContact` (any of the three), by their contact's fields.
import { eq, sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn } from 'drizzle-orm/pg-core';
import { readColumns } from '../../db/columns.ts';
import type { Fields, ListDefinition, Relation } from '../../list/definition.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import { incidentType } from '../incident_type/table.ts';
import { individualContact } from '../individual/table.ts';
import { incident } from '../lifecycle/table.ts';
import { participant } from '../lifecycle/table.ts';
import { project } from '../project/table.ts';
import { task, taskAssignee } from './table.ts';

const contactFields: Fields = { id: 'int', email: 'text', name: 'text' };

/** The contact of the participant in `participantId` matches. */
const contactOf = (participantId: PgColumn | SQL, condition: SQL) =>
  sql`EXISTS (SELECT 1 FROM ${participant} JOIN ${individualContact} ON ${individualContact.id} = ${participant.individual_contact_id} WHERE ${participant.id} = ${participantId} AND ${condition})`;

const assigneeMatches = (condition: SQL) =>
  sql`EXISTS (SELECT 1 FROM ${taskAssignee} JOIN ${participant} ON ${participant.id} = ${taskAssignee.participant_id} JOIN ${individualContact} ON ${individualContact.id} = ${participant.individual_contact_id} WHERE ${taskAssignee.task_id} = ${task.id} AND ${condition})`;

const person = (model: string, exists: (condition: SQL) => SQL): Relation => ({
  kind: 'many',
  model,
  tableName: model,
  table: individualContact,
  fields: contactFields,
  exists,
});

/** A record of the task's incident (its priority, its type) matches. */
const throughIncident = (model: string, tableName: string, table: typeof incidentPriority | typeof incidentType, fk: PgColumn): Relation => ({
  kind: 'many',
  model,
  tableName,
  table,
  fields: { id: 'int', name: 'text' },
  exists: (condition) =>
    sql`EXISTS (SELECT 1 FROM ${incident} JOIN ${table} ON ${table.id} = ${fk} WHERE ${incident.id} = ${task.incident_id} AND ${condition})`,
});

const taskIncident = alias(incident, 'incident');
const columns = readColumns(task);

export const taskList: ListDefinition<typeof columns> = {
  model: 'Task',
  tableName: 'task',
  table: task,
  columns,
  idColumn: task.id,
  searchVector: task.search_vector,
  fields: {
    id: 'int',
    description: 'text',
    status: 'text',
    priority: 'text',
    source: 'text',
    resource_id: 'text',
    resource_type: 'text',
    weblink: 'text',
    reminders: 'bool',
    resolve_by: 'timestamp',
    resolved_at: 'timestamp',
    created_at: 'timestamp',
    updated_at: 'timestamp',
    incident_id: 'int',
  },
  relations: [
    {
      kind: 'one',
      model: 'Project',
      tableName: 'project',
      table: project,
      on: eq(project.id, task.project_id),
      local: { id: task.project_id },
      fields: { id: 'int', name: 'text' },
    },
    {
      kind: 'one',
      model: 'Incident',
      tableName: 'incident',
      table: taskIncident,
      on: eq(taskIncident.id, task.incident_id),
      fields: { id: 'int', name: 'text', title: 'text', status: 'text', visibility: 'text', reported_at: 'timestamp' },
    },
    throughIncident('IncidentPriority', 'incident_priority', incidentPriority, incident.incident_priority_id),
    throughIncident('IncidentType', 'incident_type', incidentType, incident.incident_type_id),
    person('Creator', (c) => contactOf(task.creator_id, c)),
    person('Owner', (c) => contactOf(task.owner_id, c)),
    person('Assignee', assigneeMatches),
    person('IndividualContact', (c) => sql`(${contactOf(task.creator_id, c)} OR ${contactOf(task.owner_id, c)} OR ${assigneeMatches(c)})`),
  ],
};
