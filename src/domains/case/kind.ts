// Cases as the lifecycle kit sees them, with what `filter` reaches from a case.
import { sql } from 'drizzle-orm';
import { individualContact } from '../individual/table.ts';
import type { RecordKind } from '../lifecycle/kind.ts';
import { recordList } from '../lifecycle/list.ts';
import { caseTable, participant } from '../lifecycle/table.ts';
import { CASE_ASSESSMENT } from './assessment.ts';
import { caseTag } from './table.ts';

const kind: RecordKind<typeof caseTable> = { name: 'case', ownerColumn: 'case_id', table: caseTable };

const assignee = sql`(SELECT ${participant.individual_contact_id} FROM ${participant} WHERE ${participant.id} = ${caseTable.assignee_id})`;

/** What `filter` and `sortBy[]` reach from a case (Dispatch's model names). */
export const caseList = recordList(kind, {
  model: 'Case',
  assessment: CASE_ASSESSMENT,
  tags: { table: caseTag, owner: caseTag.case_id, tag: caseTag.tag_id },
  fields: { resolution_reason: 'text', triage_at: 'timestamp', escalated_at: 'timestamp' },
  // The assignee (Dispatch filters cases by "assignee" as an IndividualContact).
  people: (c) => sql`EXISTS (SELECT 1 FROM ${individualContact} WHERE ${individualContact.id} = ${assignee} AND ${c})`,
});

export const CASE: RecordKind<typeof caseTable> = { ...kind, list: caseList };
