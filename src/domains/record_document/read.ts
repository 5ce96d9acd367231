// An incident's or a case's `documents` in its read: those it owns (its incident or case document,
// its review, its workflow runs' artifacts) and the project's documents linked to it, in the order
// they were made, each as the documents' own read shows it. Documents the viewer may not see are
// left out by the document rule (table.ts), as any nested read's.
import { sql } from 'drizzle-orm';
import { column } from '../../crud/group.ts';
import type { OwnField } from '../../crud/reader.ts';
import { documentGroup } from '../document/group.ts';
import { document } from '../document/table.ts';
import { caseDocumentLink, incidentDocumentLink, recordDocument } from './table.ts';

export const recordDocuments =
  (owner: 'incident_id' | 'case_id'): OwnField =>
  (at, read, shape) => {
    const link = owner === 'incident_id' ? incidentDocumentLink : caseDocumentLink;
    return read.list(documentGroup, document, shape, (t) => ({
      from: read.from(t, document),
      // One array of ids, so that the documents are found by their key: two IN lists joined by OR
      // made PostgreSQL scan every document of the organization for each record read.
      where: sql`${column(t, 'id')} = ANY(ARRAY(SELECT ${recordDocument.document_id} FROM ${recordDocument} WHERE ${recordDocument[owner]} = ${column(at, 'id')}
        UNION ALL SELECT ${link.document_id} FROM ${link} WHERE ${link[owner]} = ${column(at, 'id')}))`,
      order: sql`${column(t, 'id')}`,
    }));
  };
