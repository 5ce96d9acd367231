// The Markdown templates records' documents are made from. A project edits its own in Settings: a
// document of the template's `resource_type` with content (Dispatch's template kinds); an incident
// or case type may name another (its template document). Muster's own are the fallback.
import { sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { runStatement } from '../../db/statements.ts';
import type { RecordDocumentKind } from '../../plugins/types.ts';
import { caseType } from '../case_type/table.ts';
import { document } from '../document/table.ts';
import { incidentType } from '../incident_type/table.ts';
import { caseTable, incident } from '../lifecycle/table.ts';

/** The `resource_type` of a project's template of each kind. */
export const TEMPLATE_TYPES: Record<RecordDocumentKind, string> = {
  incident: 'dispatch-incident-document-template',
  case: 'dispatch-case-document-template',
  review: 'dispatch-incident-review-document-template',
};

/** Placeholders every template may use, and what they are filled with. */
export const PLACEHOLDERS: Record<string, string> = {
  name: "the record's name",
  title: 'its title',
  description: 'its description',
  status: 'its status',
  visibility: 'Open or Restricted',
  type: 'its type',
  priority: 'its priority',
  severity: 'its severity',
  owner: 'the commander (incident) or assignee (case)',
  reporter: 'the reporter',
  reported_at: 'when it was reported',
  weblink: 'its page in the web UI',
  impact: 'severity, priority and the description (reviews)',
  timeline: 'the timeline, one line per event (reviews)',
  participants: 'participants and their roles (reviews)',
  tactical_report: 'the last tactical report (reviews)',
  executive_report: 'the last executive report (reviews)',
  action_items: 'tasks as a checklist, each with its owner (reviews)',
  costs: 'the costs by type and their total (reviews)',
  time_to_stable: 'from reported to Stable (reviews)',
  time_to_closed: 'from reported to Closed, once Closed (reviews)',
  signals: 'signals of the cases escalated into it (reviews)',
  cases: 'cases escalated into it (reviews)',
};

export const DEFAULT_TEMPLATES: Record<RecordDocumentKind, string> = {
  incident: `# {{title}}

**{{name}}** · {{status}} · {{visibility}} · reported {{reported_at}}

| Type | Priority | Severity | Commander | Reporter |
|---|---|---|---|---|
| {{type}} | {{priority}} | {{severity}} | {{owner}} | {{reporter}} |

## Description

{{description}}

## Investigation

What we know, what we tried, what we ruled out.

## Notes
`,
  case: `# {{title}}

**{{name}}** · {{status}} · {{visibility}} · reported {{reported_at}}

| Type | Priority | Severity | Assignee | Reporter |
|---|---|---|---|---|
| {{type}} | {{priority}} | {{severity}} | {{owner}} | {{reporter}} |

## Description

{{description}}

## Investigation

Facts and context of the investigation.
`,
  review: `# Post-incident review: {{title}}

**{{name}}** · {{type}} · commander {{owner}}

## Summary

{{description}}

## Impact

{{impact}}

## Times

- Reported: {{reported_at}}
- Time to stable: {{time_to_stable}}
- Time to closed: {{time_to_closed}}

## Timeline

{{timeline}}

## Roles and participants

{{participants}}

## Tactical report

{{tactical_report}}

## Executive report

{{executive_report}}

## Costs

{{costs}}

## Signals and cases

{{cases}}

{{signals}}

## Action items

{{action_items}}

## What went well

## What went wrong

## Lessons learned
`,
};

/** A record whose document of `kind` is about to be made. */
export interface TemplateWanted {
  kind: RecordDocumentKind;
  recordId: number;
  projectId: number;
}

/**
 * The project's first template of the kind. Its resource type is written into the statement, not
 * passed as a value: for a value the planner assumes as many matching documents as any type has
 * (the records' own documents, one per case) and walks every document in id order for the first;
 * for the written type it knows templates are few and takes them from the (project, type, id) index.
 */
const projectTemplate = (kind: RecordDocumentKind) => sql`(SELECT ${document.content} FROM ${document}
  WHERE ${document.project_id} = x.project_id AND ${document.resource_type} = ${sql.raw(`'${TEMPLATE_TYPES[kind]}'`)} AND ${document.content} IS NOT NULL
  ORDER BY ${document.id} LIMIT 1)`;

/**
 * The template each record's document is made from, in order: its type's where it has text, else
 * its project's first of the kind, else Muster's. One statement for all of them (a batch of new cases).
 */
export async function templatesFor(tx: Executor, wanted: TemplateWanted[]): Promise<string[]> {
  if (wanted.length === 0) return [];
  const asked = JSON.stringify(wanted.map((w, n) => ({ n, kind: w.kind, record_id: w.recordId, project_id: w.projectId })));
  const rows = await runStatement<{ n: number; content: string | null }>(
    tx,
    sql`SELECT x.n, COALESCE(
      (SELECT NULLIF(${document.content}, '') FROM ${document} WHERE ${document.id} = CASE x.kind
        WHEN 'case' THEN (SELECT ${caseType.case_template_document_id} FROM ${caseType} JOIN ${caseTable} ON ${caseTable.case_type_id} = ${caseType.id} WHERE ${caseTable.id} = x.record_id)
        WHEN 'review' THEN (SELECT ${incidentType.review_template_document_id} FROM ${incidentType} JOIN ${incident} ON ${incident.incident_type_id} = ${incidentType.id} WHERE ${incident.id} = x.record_id)
        ELSE (SELECT ${incidentType.incident_template_document_id} FROM ${incidentType} JOIN ${incident} ON ${incident.incident_type_id} = ${incidentType.id} WHERE ${incident.id} = x.record_id)
      END),
      CASE x.kind WHEN 'case' THEN ${projectTemplate('case')} WHEN 'review' THEN ${projectTemplate('review')} ELSE ${projectTemplate('incident')} END) AS content
    FROM json_to_recordset(${asked}::json) AS x(n int, kind text, record_id int, project_id int)`,
  );
  const found = new Map(rows.map((r) => [r.n, r.content]));
  return wanted.map((w, n) => found.get(n) ?? DEFAULT_TEMPLATES[w.kind]);
}
