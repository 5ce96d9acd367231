// Documents of incidents and cases. A document a record owns (its incident or case document, its
// review, a workflow run's artifact) has a row in `record_document` and is Restricted with the
// record; the project's documents a resolver found relevant to a record are linked to it instead.
import { sql } from 'drizzle-orm';
import { alias, index, integer, pgTable } from 'drizzle-orm/pg-core';
import { restrictRows } from '../../server/visibility.ts';
import { document } from '../document/table.ts';
import { caseTable, incident, participant, recordRule } from '../lifecycle/table.ts';
import { linkTable } from '../project/scoped.ts';

export const recordDocument = pgTable(
  'record_document',
  {
    document_id: integer('document_id')
      .primaryKey()
      .references(() => document.id, { onDelete: 'cascade' }),
    incident_id: integer('incident_id').references(() => incident.id, { onDelete: 'cascade' }),
    case_id: integer('case_id').references(() => caseTable.id, { onDelete: 'cascade' }),
  },
  (t) => [index('record_document_incident_idx').on(t.incident_id), index('record_document_case_idx').on(t.case_id)],
);

/** The project's documents a resolver found relevant to a record (their search filters or terms match it). */
export const incidentDocumentLink = linkTable('incident_document_link', ['incident_id', incident], ['document_id', document]);
export const caseDocumentLink = linkTable('case_document_link', ['case_id', caseTable], ['document_id', document]);

const owner = alias(recordDocument, 'document_owner');
const ownerIncident = alias(incident, 'document_incident');
const ownerCase = alias(caseTable, 'document_case');

// A record's documents are Restricted with it: seen by those who see the record, in every read, list and search.
restrictRows('document', (table, v) => {
  const t = table as typeof document;
  // Asked of the document's own owner row (found by its key), not as the set of every hidden
  // document: that set scanned all of the organization's records and their documents in every read
  // that nests documents, so each new case made the next read slower.
  const seenIncident = sql`SELECT 1 FROM "incident" "document_incident" WHERE ${ownerIncident.id} = ${owner.incident_id} AND ${recordRule(ownerIncident as unknown as typeof incident, participant.incident_id, v)}`;
  const seenCase = sql`SELECT 1 FROM "case" "document_case" WHERE ${ownerCase.id} = ${owner.case_id} AND ${recordRule(ownerCase as unknown as typeof caseTable, participant.case_id, v)}`;
  const hidden = sql`SELECT 1 FROM "record_document" "document_owner" WHERE ${owner.document_id} = ${t.id}
    AND ((${owner.incident_id} IS NOT NULL AND NOT EXISTS (${seenIncident})) OR (${owner.case_id} IS NOT NULL AND NOT EXISTS (${seenCase})))`;
  return sql`(${t.organization_id} = ${v.organization} AND NOT EXISTS (${hidden}))`;
});
