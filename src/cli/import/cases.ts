// Cases: their links to incidents, tags, duplicates and related cases, and their notes. A case's
// assignee, reporter and resolver are its participants, written once those are in.
import { inProject, linking } from './people.ts';
import type { Spec } from './copy.ts';
import { owned } from './incidents.ts';
import { withLinks } from './links.ts';

export const caseSpec: Spec = inProject('case', 'case', {
  select: withLinks('case', ['ticket', 'conversation', 'storage'], 'case_id'),
  refs: {
    case_type_id: 'case_type',
    case_priority_id: 'case_priority',
    case_severity_id: 'case_severity',
    assignee_id: 'participant',
    reporter_id: 'participant',
    resolved_by_id: 'app_user',
  },
  later: ['assignee_id', 'reporter_id'],
  gone: 'report',
  // Its documents and group come over from their own tables, owned by the case (records.ts).
  used: ['duplicate_id', 'related_id', 'case_document_id', 'tactical_group_id'],
  lost: {
    signal_thread_ts: 'the thread is kept in the conversation',
    dedicated_channel: 'Muster knows a dedicated channel from the conversation',
    genai_analysis: 'Muster has no GenAI features',
    event: 'Muster has no security event flag on a case',
    participants_team: 'Muster keeps no team or location on a case',
    participants_location: 'Muster keeps no team or location on a case',
  },
});

export const caseDetailSpecs: Spec[] = owned([
  linking('case_incident', 'assoc_case_incidents', { case_id: ['case_id', 'case'], incident_id: ['incident_id', 'incident'] }),
  linking('case_tag', 'assoc_case_tags', { case_id: ['case_id', 'case'], tag_id: ['tag_id', 'tag'] }),
  {
    ...linking('case_duplicate', 'case', { case_id: ['id', 'case'], duplicate_id: ['duplicate_id', 'case'] }),
    select: 'SELECT id AS case_id, duplicate_id FROM {s}."case" WHERE duplicate_id IS NOT NULL',
  },
  {
    ...linking('case_related', 'case', { case_id: ['id', 'case'], related_id: ['related_id', 'case'] }),
    select: 'SELECT id AS case_id, related_id FROM {s}."case" WHERE related_id IS NOT NULL',
  },
  inProject('case_note', 'case_notes', {
    select: 'SELECT n.*, c.project_id FROM {s}.case_notes n JOIN {s}."case" c ON c.id = n.case_id',
    refs: { case_id: 'case', last_updated_by_id: 'individual_contact' },
  }),
]);
