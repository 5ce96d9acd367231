// What `filter` and `sortBy[]` reach from a case (Dispatch's model names). The case kind (kind.ts)
// builds its list from this, so saved search filters match what the list's filter does.
import { sql } from 'drizzle-orm';
import { individualContact } from '../individual/table.ts';
import type { RecordListSpec } from '../lifecycle/list.ts';
import { caseTable, participant } from '../lifecycle/table.ts';
import { CASE_ASSESSMENT } from './assessment.ts';
import { caseTag } from './table.ts';

const assignee = sql`(SELECT ${participant.individual_contact_id} FROM ${participant} WHERE ${participant.id} = ${caseTable.assignee_id})`;

export const CASE_LIST: RecordListSpec = {
  model: 'Case',
  assessment: CASE_ASSESSMENT,
  tags: { table: caseTag, owner: caseTag.case_id, tag: caseTag.tag_id },
  fields: { resolution_reason: 'text', triage_at: 'timestamp', escalated_at: 'timestamp' },
  // The assignee (Dispatch filters cases by "assignee" as an IndividualContact).
  people: (c) => sql`EXISTS (SELECT 1 FROM ${individualContact} WHERE ${individualContact.id} = ${assignee} AND ${c})`,
};
