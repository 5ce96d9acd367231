// Dispatch tables, or parts of them, that have no home in Muster: counted for the report so that
// nothing is left behind silently.
import type { Importer, Spec } from './copy.ts';
import { unfoldedCount } from './links.ts';

const NOTES: Record<string, string> = {
  participant_activity:
    "Muster prices a case's activities from its own timeline (its cost models), not from Dispatch's recorded activity; the case's classic cost is computed from roles as before",
  case_cost: 'Muster computes the costs of a case when the case is read (from roles and cost models)',
  case_cost_type: 'Muster computes the costs of a case when the case is read (from roles and cost models)',
  recommendation: 'Muster does not keep the recommendations it made',
  recommendation_match: 'Muster does not keep the recommendations it made',
  forms: 'Muster has no forms',
  forms_type: 'Muster has no forms',
  email_templates: "Muster's notification mails are not templated per project",
  prompt: 'Muster has no GenAI features',
  canvas: 'Muster does not post Slack canvases',
  service_feedback: 'Muster has no on-call shift feedback',
  service_feedback_reminder: 'Muster has no on-call shift feedback',
  mfa_challenge: 'Muster keeps no MFA challenges (they expire within minutes)',
  monitor: 'Muster has no monitors',
  team_contact_incident: 'Muster does not link teams to incidents (engaged teams are participants)',
  assoc_query_incidents: 'Muster does not link queries to incidents',
  assoc_source_incidents: 'Muster does not link sources to incidents',
  assoc_document_tags: 'Muster does not tag documents',
  assoc_signal_engagements: 'Muster does not link engagements to signal definitions',
  assoc_signal_workflows: 'Muster does not run workflows from signal definitions',
  workflow_incident_priority: 'Muster does not filter workflows by priority',
  workflow_incident_type: 'Muster does not filter workflows by type',
  workflow_term: 'Muster does not link workflows to terms',
  definition_teams: 'Muster does not link definitions to teams',
};

/** Tables read in part by the specs or folded into records; the rest is counted here. */
const HANDLED_APART = new Set([
  'alembic_version',
  'ticket',
  'conversation',
  'storage',
  'conference',
  'document',
  'event',
  'plugin_instance',
  'dispatch_user_project',
  'project',
]);

export async function countHomeless(im: Importer, specs: Spec[]): Promise<void> {
  const covered = new Set(specs.map((s) => s.from));
  const n = async (text: string) => (await im.source.rows<{ n: number }>(text.replaceAll('{s}', `"${im.schema}"`)))[0]?.n ?? 0;
  for (const table of await im.source.tableNames(im.schema)) {
    if (covered.has(table) || HANDLED_APART.has(table)) continue;
    im.report.noHome(table, await n(`SELECT count(*)::int AS n FROM {s}."${table}"`), NOTES[table] ?? 'no table for it in Muster');
  }
  for (const table of ['ticket', 'conversation', 'storage', 'conference'])
    if (await im.source.columns(im.schema, table)) {
      const owners = (await im.source.columns(im.schema, table))?.has('case_id') ? (['incident_id', 'case_id'] as const) : (['incident_id'] as const);
      im.report.noHome(table, await n(unfoldedCount(table, [...owners])), "not the first of its record's (or a task's): a record keeps one of each");
    }
  im.report.noHome(
    'document',
    await n('SELECT count(*)::int AS n FROM {s}.document WHERE incident_id IS NULL AND case_id IS NULL AND report_id IS NOT NULL'),
    'documents of a report that names no incident or case: Muster keeps a document with a project or a record',
  );
  im.report.noHome(
    'group',
    await n('SELECT count(*)::int AS n FROM {s}."group" WHERE incident_id IS NULL AND case_id IS NULL'),
    'groups of no incident or case: Muster keeps a group with its record',
  );
  im.report.noHome(
    'event',
    await n('SELECT count(*)::int AS n FROM {s}.event WHERE incident_id IS NULL AND case_id IS NULL'),
    'events of signals alone: Muster keeps a timeline on incidents and cases only',
  );
}
