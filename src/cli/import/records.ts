// What Dispatch keeps beside an incident or a case in tables of their own: the record's documents
// (its incident or case document, review, sheet, executive reports) and its groups (tactical and
// notifications mailing lists). Muster keeps a record's documents as project documents owned by the
// record (`record_document`), and its groups in `participant_group`; links and ids verbatim.
import { inProject } from './people.ts';
import type { Spec } from './copy.ts';
import { owned } from './incidents.ts';

/** A Dispatch row of an incident or a case, with the project of its record when it names none. */
const ofRecord = (table: string) =>
  `SELECT x.*, coalesce(${table === 'document' ? 'x.project_id, ' : ''}i.project_id, c.project_id) AS project_id FROM {s}."${table}" x
    LEFT JOIN {s}.incident i ON i.id = x.incident_id LEFT JOIN {s}."case" c ON c.id = x.case_id
    WHERE x.incident_id IS NOT NULL OR x.case_id IS NOT NULL ORDER BY x.id`;

/**
 * Documents of a record: written as documents first (ids mapped), then owned by their record. A
 * document Dispatch deleted loses its record's ownership on a later run; the document itself stays,
 * as the reference area's documents share its map (reference.ts).
 */
export const recordDocumentSpecs: Spec[] = [
  inProject('document', 'document', {
    select: ofRecord('document'),
    used: ['incident_id', 'case_id'],
    lost: { report_id: 'Muster keeps no link from a document to the report it was written for (the document stays with its record)' },
  }),
  ...owned([
    {
      kind: 'record_document',
      from: 'document',
      select: 'SELECT id AS document_id, incident_id, case_id FROM {s}.document WHERE incident_id IS NOT NULL OR case_id IS NOT NULL',
      link: ['document_id'],
      refs: { document_id: 'document', incident_id: 'incident', case_id: 'case' },
    },
  ]),
];

/** Dispatch tells a group's kind by the plugin's resource type (`...-tactical-group`, `...-notifications-group`). */
const groupKind = (resourceType: unknown) => (String(resourceType ?? '').includes('notifications') ? 'notifications' : 'tactical');

export const groupSpec: Spec = inProject('participant_group', 'group', {
  select: ofRecord('group'),
  refs: { incident_id: 'incident', case_id: 'case' },
  values: (r) => ({ kind: groupKind(r.resource_type) }),
  gone: 'delete',
});
