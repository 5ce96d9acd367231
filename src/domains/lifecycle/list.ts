// The list of incidents or of cases: what `filter`, `sortBy[]` and `q` reach from a record, with
// Dispatch's model names. The fields, project, assessment and tag relations both kinds share are
// declared here; each kind adds its own fields and relations.
import { eq, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { AnyListDefinition, Fields, Relation } from '../../list/definition.ts';
import { individualContact } from '../individual/table.ts';
import { project } from '../project/table.ts';
import { tagRelations } from '../tag/plan.ts';
import { type AssessmentSpec, assessmentRelations } from './assessment.ts';
import type { RecordRows } from './kind.ts';

/** Incidents' and cases' statuses in the order a record moves through them (`sortBy[]=status_order`). */
const STATUS_ORDER = ['New', 'Triage', 'Active', 'Escalated', 'Stable', 'Closed'];

const COMMON_FIELDS: Fields = {
  id: 'int',
  name: 'text',
  title: 'text',
  description: 'text',
  resolution: 'text',
  status: 'text',
  visibility: 'text',
  reported_at: 'timestamp',
  stable_at: 'timestamp',
  closed_at: 'timestamp',
  created_at: 'timestamp',
  updated_at: 'timestamp',
};

export interface RecordListSpec {
  model: 'Incident' | 'Case';
  assessment: AssessmentSpec;
  /** The record's tag link table and its two columns. */
  tags: { table: PgTable; owner: PgColumn; tag: PgColumn };
  /** Fields of this kind only. */
  fields: Fields;
  /**
   * Which people `filter` reaches as IndividualContact (Dispatch's "commander", "participant",
   * "assignee"): EXISTS over them, correlated to the listed record, with the condition inside.
   */
  people: (condition: SQL) => SQL;
  /** Relations of this kind only. */
  relations?: Relation[];
}

export function recordList(kind: RecordRows, spec: RecordListSpec): AnyListDefinition {
  const table = kind.table;
  return {
    model: spec.model,
    tableName: kind.name,
    table,
    // The page picks ids (from an index alone where one fits); the readers build the items.
    columns: { id: table.id },
    idColumn: table.id,
    searchVector: table.search_vector,
    // Lists of records grow large: the page can stop after LIMIT rows of an index instead of sorting all.
    separateCount: true,
    fields: { ...COMMON_FIELDS, ...spec.fields },
    // What needs people most first: the statuses in the order a record moves through them.
    sorts: {
      status_order: sql`CASE ${table.status} ${sql.raw(STATUS_ORDER.map((s, i) => `WHEN '${s}' THEN ${i}`).join(' '))} ELSE ${STATUS_ORDER.length} END`,
    },
    relations: [
      {
        kind: 'one',
        model: 'Project',
        tableName: 'project',
        table: project,
        on: eq(project.id, table.project_id),
        local: { id: table.project_id },
        fields: { id: 'int', name: 'text' },
      },
      ...assessmentRelations(kind, spec.assessment),
      ...tagRelations(spec.tags.table, spec.tags.owner, spec.tags.tag, table.id),
      {
        kind: 'many',
        model: 'IndividualContact',
        tableName: 'individual_contact',
        table: individualContact,
        fields: { id: 'int', email: 'text', name: 'text', title: 'text', company: 'text' },
        exists: spec.people,
      },
      ...(spec.relations ?? []),
    ],
  };
}
