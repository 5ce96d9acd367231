// What a record's documents are filled with: the record as plugins see it (its Subject), and for a
// post-incident review what its record holds — timeline, people and roles, reports, tasks as action
// items with owners, costs, times to Stable and Closed, the cases escalated into it and their
// signals — each as Markdown under its placeholder. A fact not known yet (time to closed, before
// the incident closes) is left out, so that its placeholder waits for a later fill.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { runStatement } from '../../db/statements.ts';
import type { Subject } from '../../plugins/types.ts';
import { event } from '../event/table.ts';
import { incidentCost } from '../incident_cost/table.ts';
import { incidentCostType } from '../incident_cost_type/table.ts';
import { individualContact } from '../individual/table.ts';
import { caseIncident, caseTable, incident, participant, participantRole } from '../lifecycle/table.ts';
import { report } from '../report/table.ts';
import { signal, signalInstance } from '../signal/table.ts';
import { task, taskAssignee } from '../task/table.ts';

const none = '_None._';
const list = (lines: string[]) => (lines.length ? lines.join('\n') : none);
const day = (at: Date | string | null) => (at ? new Date(at).toISOString().replace('T', ' ').slice(0, 16) : '');

/** A span as people read it: "2 h 5 min", "3 d 4 h". */
export function span(ms: number): string {
  const min = Math.max(0, Math.round(ms / 60_000));
  if (min < 60) return `${min} min`;
  const h = Math.floor(min / 60);
  if (h < 48) return `${h} h ${min % 60} min`;
  return `${Math.floor(h / 24)} d ${h % 24} h`;
}

/** The placeholders every record's document takes, from its subject. */
export const subjectValues = (s: Subject): Record<string, string> => ({
  name: s.name ?? `${s.kind} ${s.id}`,
  title: s.title,
  description: s.description || none,
  status: s.status,
  visibility: s.visibility,
  type: s.type ?? '',
  priority: s.priority ?? '',
  severity: s.severity ?? '',
  owner: s.owner ?? 'nobody',
  reporter: s.reporter ?? 'nobody',
  reported_at: day(s.reported_at),
  weblink: s.weblink,
});

const reportText = (details: Record<string, unknown> | undefined) =>
  details
    ? Object.entries(details)
        .map(([k, v]) => `**${k.replace(/_/g, ' ')}:** ${String(v)}`)
        .join('\n\n')
    : none;

/** The review's placeholders from the incident's record (besides subjectValues). */
export async function reviewValues(tx: Executor, incidentId: number, s: Subject): Promise<Record<string, string>> {
  const [times] = await runStatement<{ reported_at: string; stable_at: string | null; closed_at: string | null }>(
    tx,
    sql`SELECT ${incident.reported_at} AS reported_at, ${incident.stable_at} AS stable_at, ${incident.closed_at} AS closed_at FROM ${incident} WHERE ${incident.id} = ${incidentId}`,
  );
  const events = await runStatement<{ started_at: string; description: string; owner: string | null }>(
    tx,
    sql`SELECT ${event.started_at} AS started_at, ${event.description} AS description, ${event.owner} AS owner FROM ${event}
      WHERE ${event.incident_id} = ${incidentId} ORDER BY ${event.started_at}, ${event.created_at}`,
  );
  const people = await runStatement<{ email: string; name: string | null; roles: string | null }>(
    tx,
    sql`SELECT ${individualContact.email} AS email, ${individualContact.name} AS name,
        (SELECT string_agg(DISTINCT ${participantRole.role}, ', ') FROM ${participantRole} WHERE ${participantRole.participant_id} = ${participant.id}) AS roles
      FROM ${participant} JOIN ${individualContact} ON ${individualContact.id} = ${participant.individual_contact_id}
      WHERE ${participant.incident_id} = ${incidentId} ORDER BY ${participant.id}`,
  );
  const reports = await runStatement<{ type: string; details: Record<string, unknown> }>(
    tx,
    sql`SELECT DISTINCT ON (${report.type}) ${report.type} AS type, ${report.details} AS details FROM ${report}
      WHERE ${report.incident_id} = ${incidentId} ORDER BY ${report.type}, ${report.created_at} DESC, ${report.id} DESC`,
  );
  const tasks = await runStatement<{ description: string | null; status: string; owners: string | null }>(
    tx,
    sql`SELECT ${task.description} AS description, ${task.status} AS status,
        (SELECT string_agg(${individualContact.email}, ', ' ORDER BY ${individualContact.email}) FROM ${participant}
          JOIN ${individualContact} ON ${individualContact.id} = ${participant.individual_contact_id}
          WHERE ${participant.id} = ${task.owner_id} OR ${participant.id} IN (SELECT ${taskAssignee.participant_id} FROM ${taskAssignee} WHERE ${taskAssignee.task_id} = ${task.id})) AS owners
      FROM ${task} WHERE ${task.incident_id} = ${incidentId} ORDER BY ${task.id}`,
  );
  const costs = await runStatement<{ name: string; amount: number }>(
    tx,
    sql`SELECT ${incidentCostType.name} AS name, sum(${incidentCost.amount})::float8 AS amount FROM ${incidentCost}
      JOIN ${incidentCostType} ON ${incidentCostType.id} = ${incidentCost.incident_cost_type_id}
      WHERE ${incidentCost.incident_id} = ${incidentId} GROUP BY ${incidentCostType.name} ORDER BY ${incidentCostType.name}`,
  );
  const cases = await runStatement<{ id: number; name: string | null; title: string; signals: string | null }>(
    tx,
    sql`SELECT ${caseTable.id} AS id, ${caseTable.name} AS name, ${caseTable.title} AS title,
        (SELECT string_agg(DISTINCT ${signal.name}, ', ') FROM ${signalInstance} JOIN ${signal} ON ${signal.id} = ${signalInstance.signal_id}
          WHERE ${signalInstance.case_id} = ${caseTable.id}) AS signals
      FROM ${caseIncident} JOIN ${caseTable} ON ${caseTable.id} = ${caseIncident.case_id} WHERE ${caseIncident.incident_id} = ${incidentId} ORDER BY ${caseTable.id}`,
  );
  const last = (type: string) => reportText(reports.find((r) => r.type === type)?.details);
  const total = costs.reduce((sum, c) => sum + c.amount, 0);
  const signals = [...new Set(cases.flatMap((c) => (c.signals ? c.signals.split(', ') : [])))];
  const values: Record<string, string> = {
    ...subjectValues(s),
    impact: `Severity ${s.severity ?? 'unknown'}, priority ${s.priority ?? 'unknown'}.\n\n${s.description || ''}`.trim(),
    timeline: list(events.map((e) => `- ${day(e.started_at)} ${e.description}${e.owner ? ` (${e.owner})` : ''}`)),
    participants: list(people.map((p) => `- ${p.name ? `${p.name} <${p.email}>` : p.email}${p.roles ? `: ${p.roles}` : ''}`)),
    tactical_report: last('Tactical Report'),
    executive_report: last('Executive Report'),
    action_items: list(tasks.map((t) => `- [${t.status === 'Resolved' ? 'x' : ' '}] ${t.description ?? ''}${t.owners ? ` (owner: ${t.owners})` : ''}`)),
    costs: costs.length ? `${costs.map((c) => `- ${c.name}: ${c.amount.toFixed(2)}`).join('\n')}\n- **Total: ${total.toFixed(2)}**` : none,
    cases: list(cases.map((c) => `- Case ${c.name ?? c.id}: ${c.title}`)),
    signals: signals.length ? `Signals: ${signals.join(', ')}` : '',
  };
  if (times?.stable_at) values.time_to_stable = span(new Date(times.stable_at).getTime() - new Date(times.reported_at).getTime());
  if (times?.closed_at) values.time_to_closed = span(new Date(times.closed_at).getTime() - new Date(times.reported_at).getTime());
  return values;
}
