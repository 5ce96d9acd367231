// An incident or a case as plugins and messages see it (plugins/types.ts Subject): names instead of
// ids, the owner's and reporter's e-mails, its page's link. Read in one statement per record.
import { sql } from 'drizzle-orm';
import type { Settings } from '../../config.ts';
import type { Executor } from '../../db/connection.ts';
import { runStatement } from '../../db/statements.ts';
import { recordLink, type Subject } from '../../plugins/types.ts';
import { casePriority } from '../case_priority/table.ts';
import { caseSeverity } from '../case_severity/table.ts';
import { caseType } from '../case_type/table.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import { incidentSeverity } from '../incident_severity/table.ts';
import { incidentType } from '../incident_type/table.ts';
import { individualContact } from '../individual/table.ts';
import { organization } from '../organization/table.ts';
import { project } from '../project/table.ts';
import type { RecordRows } from './kind.ts';
import { caseTable, incident, participant } from './table.ts';

const SHAPES = {
  incident: {
    table: incident,
    type: incidentType,
    priority: incidentPriority,
    severity: incidentSeverity,
    cols: ['incident_type_id', 'incident_priority_id', 'incident_severity_id', 'commander_id'],
  },
  case: {
    table: caseTable,
    type: caseType,
    priority: casePriority,
    severity: caseSeverity,
    cols: ['case_type_id', 'case_priority_id', 'case_severity_id', 'assignee_id'],
  },
} as const;

interface Row {
  id: number;
  name: string | null;
  title: string;
  description: string;
  status: string;
  visibility: string;
  reported_at: Date | string;
  organization_id: number;
  organization_slug: string;
  organization_name: string;
  project_id: number;
  project_name: string;
  project_slug: string;
  type: string | null;
  priority: string | null;
  severity: string | null;
  owner: string | null;
  reporter: string | null;
}

/** The records of `kind` with these ids, as subjects, in no particular order; missing ids are left out. */
export async function subjectsOf(tx: Executor, settings: Settings, kind: RecordRows, ids: number[]): Promise<Subject[]> {
  if (ids.length === 0) return [];
  const s = SHAPES[kind.name];
  const t = s.table;
  const [typeCol, priorityCol, severityCol, ownerCol] = s.cols.map((c) => sql.identifier(c));
  const email = (col: typeof ownerCol) =>
    sql`(SELECT ic.email FROM ${participant} p JOIN ${individualContact} ic ON ic.id = p.individual_contact_id WHERE p.id = r.${col})`;
  const rows = await runStatement<Row>(
    tx,
    sql`SELECT r.id, r.name, r.title, r.description, r.status, r.visibility, r.reported_at,
      o.id AS organization_id, o.slug AS organization_slug, o.name AS organization_name,
      pr.id AS project_id, pr.name AS project_name, pr.slug AS project_slug,
      (SELECT name FROM ${s.type} WHERE id = r.${typeCol}) AS type,
      (SELECT name FROM ${s.priority} WHERE id = r.${priorityCol}) AS priority,
      (SELECT name FROM ${s.severity} WHERE id = r.${severityCol}) AS severity,
      ${email(ownerCol)} AS owner, ${email(sql.identifier('reporter_id'))} AS reporter
    FROM ${t} r JOIN ${organization} o ON o.id = r.organization_id JOIN ${project} pr ON pr.id = r.project_id
    WHERE r.id = ANY(${sql.param(ids)}::int[])`,
  );
  return rows.map((r) => ({
    kind: kind.name,
    id: r.id,
    organization: { id: r.organization_id, slug: r.organization_slug, name: r.organization_name },
    project: { id: r.project_id, name: r.project_name, slug: r.project_slug },
    name: r.name,
    title: r.title,
    description: r.description,
    status: r.status,
    visibility: r.visibility,
    type: r.type,
    priority: r.priority,
    severity: r.severity,
    owner: r.owner,
    reporter: r.reporter,
    reported_at: new Date(r.reported_at).toISOString(),
    weblink: recordLink(settings.uiUrl, r.organization_slug, kind.name, r.name ?? String(r.id)),
  }));
}

export async function subjectOf(tx: Executor, settings: Settings, kind: RecordRows, id: number): Promise<Subject | undefined> {
  const [subject] = await subjectsOf(tx, settings, kind, [id]);
  return subject;
}
