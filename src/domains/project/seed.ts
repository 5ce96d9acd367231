// What every new project starts with, as Dispatch seeds it: a default incident type, incident
// priorities and severities, the response-cost type, a default case type mapped to the incident
// type, case priorities and severities. One multi-row insert per kind, all sent as one statement
// inside the caller's transaction, so a project never exists half-seeded and creating one stays fast.
// It also gets an instance of every plugin in the catalogue (plugin-instances.ts).
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { casePriority } from '../case_priority/table.ts';
import { caseSeverity } from '../case_severity/table.ts';
import { caseType } from '../case_type/table.ts';
import { incidentCostType } from '../incident_cost_type/table.ts';
import { incidentPriority } from '../incident_priority/table.ts';
import { incidentSeverity } from '../incident_severity/table.ts';
import { incidentType } from '../incident_type/table.ts';
import { seedInstances } from './plugin-instances.ts';

const severities = (subject: string) => [
  { name: 'Undetermined', description: `The severity of the ${subject} has not been determined yet.`, view_order: 1, color: '#9e9e9e', default: true },
  { name: 'Low', description: 'Low severity.', view_order: 2, color: '#8bc34a' },
  { name: 'Medium', description: 'Medium severity.', view_order: 3, color: '#ffeb3b' },
  { name: 'High', description: 'High severity.', view_order: 4, color: '#ff9800' },
  { name: 'Critical', description: 'Critical severity.', view_order: 5, color: '#e53935' },
];

// Reminders are hours between tactical / executive report reminders; 9999 means practically never.
const incidentPriorities = [
  {
    name: 'Low',
    description: 'Needs attention during working hours until the incident is stable.',
    view_order: 1,
    tactical_report_reminder: 12,
    executive_report_reminder: 9999,
    color: '#8bc34a',
    default: true,
  },
  {
    name: 'Medium',
    description: 'Needs attention during waking hours, weekends included, until the incident is stable.',
    view_order: 2,
    tactical_report_reminder: 6,
    executive_report_reminder: 12,
    color: '#ff9800',
  },
  {
    name: 'High',
    description: 'Needs attention around the clock, before all other work, until the incident is stable.',
    view_order: 3,
    tactical_report_reminder: 2,
    executive_report_reminder: 6,
    color: '#e53935',
  },
];

const casePriorities = [
  { name: 'Low', description: 'Triage when time allows.', view_order: 1, color: '#8bc34a', default: true },
  { name: 'Medium', description: 'Triage within a day of the case being opened.', view_order: 2, color: '#ffeb3b' },
  { name: 'High', description: 'Triage within eight hours of the case being opened.', view_order: 3, color: '#ff9800' },
  { name: 'Critical', description: 'Triage at once; the assignee is paged.', view_order: 4, color: '#e53935', page_assignee: true },
  { name: 'Optional', description: 'Triage is optional.', view_order: 5, color: '#9e9e9e' },
];

const defaultType = (subject: string) => ({
  name: 'Default',
  description: `This is the default ${subject} type.`,
  visibility: 'Open',
  default: true,
  enabled: true,
  exclude_from_metrics: false,
});

/**
 * Seeds a project just inserted in `tx`, in one statement (one round trip): every insert is a
 * data-modifying WITH clause, and the case type takes the id the incident type insert returns.
 */
export async function seedProject(tx: Executor, project: { id: number; organization_id: number }) {
  const owner = { organization_id: project.organization_id, project_id: project.id };
  const rows = <T extends object>(list: T[]) => list.map((r) => ({ ...owner, ...r }));

  const type = tx
    .insert(incidentType)
    .values({ ...owner, ...defaultType('incident') })
    .returning({ id: incidentType.id });
  const others = [
    tx.insert(incidentPriority).values(rows(incidentPriorities)),
    tx.insert(incidentSeverity).values(rows(severities('incident'))),
    tx.insert(incidentCostType).values({
      ...owner,
      name: 'Response Cost',
      description: 'The cost of responding to an incident: the time its participants spend on it.',
      category: 'Primary',
      details: {},
      default: true,
      editable: false,
    }),
    tx.insert(casePriority).values(rows(casePriorities)),
    tx.insert(caseSeverity).values(rows(severities('case'))),
  ];
  const mappedCaseType = tx.insert(caseType).values({ ...owner, ...defaultType('case'), incident_type_id: sql`(SELECT id FROM seeded_incident_type)` });
  const clauses = [
    sql`seeded_incident_type AS (${type.getSQL()})`,
    ...others.map((q, i) => sql`${sql.raw(`seeded_${i}`)} AS (${q.getSQL()})`),
    sql`seeded_plugin_instances AS (${seedInstances(project.id, project.organization_id)})`,
  ];
  await tx.execute(sql`WITH ${sql.join(clauses, sql`, `)} ${mappedCaseType.getSQL()}`);
}
