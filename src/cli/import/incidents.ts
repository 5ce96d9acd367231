// Incidents and their people, timeline, tasks, reports, costs, feedback, tags, terms and duplicates.
// An incident's commander and reporter are its participants, so they are written once the
// participants are in (`later`).
import { inProject, linking } from './people.ts';
import type { Spec } from './copy.ts';
import { withLinks } from './links.ts';

export const incidentSpec: Spec = inProject('incident', 'incident', {
  select: withLinks('incident', ['ticket', 'conversation', 'storage', 'conference'], 'incident_id'),
  refs: {
    incident_type_id: 'incident_type',
    incident_priority_id: 'incident_priority',
    incident_severity_id: 'incident_severity',
    commander_id: 'participant',
    reporter_id: 'participant',
  },
  later: ['commander_id', 'reporter_id'],
  gone: 'report',
  // Its documents and groups come over from their own tables, owned by the incident (records.ts).
  used: ['duplicate_id', 'incident_document_id', 'incident_review_document_id', 'tactical_group_id', 'notifications_group_id'],
  lost: {
    liaison_id: 'Muster has no liaison or scribe role on the record (their participant roles come over)',
    scribe_id: 'Muster has no liaison or scribe role on the record (their participant roles come over)',
  },
});

/** Participants of incidents and cases (both kinds must be in first). */
export const participantSpecs: Spec[] = [
  {
    kind: 'participant',
    from: 'participant',
    // Muster records when someone joined and whether they still take part; Dispatch derives both from the roles.
    select: `SELECT p.*, a.joined_at, coalesce(a.still_active, false) AS still_active FROM {s}.participant p
      LEFT JOIN (SELECT participant_id, min(assumed_at) AS joined_at, bool_or(renounced_at IS NULL) AS still_active FROM {s}.participant_role GROUP BY participant_id) a
      ON a.participant_id = p.id`,
    refs: { incident_id: 'incident', case_id: 'case', individual_contact_id: 'individual_contact' },
    values: (r) => ({ created_at: r.joined_at, active: r.still_active }),
    gone: 'delete',
    used: ['joined_at', 'still_active'],
    lost: {
      added_by_id: 'Muster does not record who added a participant',
      user_conversation_id: 'Muster looks the chat user up again',
      service_id: 'Muster does not record the on-call service that paged a participant',
    },
  },
  { kind: 'participant_role', from: 'participant_role', refs: { participant_id: 'participant' }, gone: 'delete' },
];

/** A record's own rows: a later run removes those Dispatch deleted since (copy.ts, `gone`). */
export const owned = (specs: Spec[]): Spec[] => specs.map((s) => ({ ...s, gone: 'delete' }));

export const incidentDetailSpecs: Spec[] = owned([
  {
    kind: 'event',
    from: 'event',
    select: 'SELECT * FROM {s}.event WHERE incident_id IS NOT NULL OR case_id IS NOT NULL',
    naturalKey: 'uuid',
    refs: { incident_id: 'incident', case_id: 'case' },
    lost: {
      individual_id: 'Muster keeps who made an entry in its text and owner only',
      dispatch_user_id: 'Muster keeps who made an entry in its text and owner only',
    },
  },
  {
    kind: 'report',
    from: 'report',
    refs: { incident_id: 'incident', participant_id: 'participant' },
    lost: { details_raw: 'Muster keeps the structured details' },
  },
  inProject('task', 'task', {
    select: 'SELECT t.*, i.project_id FROM {s}.task t JOIN {s}.incident i ON i.id = t.incident_id',
    refs: { incident_id: 'incident', creator_id: 'participant', owner_id: 'participant' },
  }),
  linking('task_assignee', 'task_assignees', { task_id: ['task_id', 'task'], participant_id: ['participant_id', 'participant'] }),
  inProject('incident_cost', 'incident_cost', { refs: { incident_id: 'incident', incident_cost_type_id: 'incident_cost_type' } }),
  inProject('feedback', 'feedback', {
    select:
      'SELECT f.*, coalesce(f.project_id, i.project_id, c.project_id) AS project_id FROM {s}.feedback f LEFT JOIN {s}.incident i ON i.id = f.incident_id LEFT JOIN {s}."case" c ON c.id = f.case_id',
    refs: { incident_id: 'incident', case_id: 'case', participant_id: 'participant' },
  }),
  linking('incident_tag', 'assoc_incident_tags', { incident_id: ['incident_id', 'incident'], tag_id: ['tag_id', 'tag'] }),
  linking('incident_term', 'assoc_incident_terms', { incident_id: ['incident_id', 'incident'], term_id: ['term_id', 'term'] }),
  {
    ...linking('incident_duplicate', 'incident', { incident_id: ['id', 'incident'], duplicate_id: ['duplicate_id', 'incident'] }),
    select: 'SELECT id AS incident_id, duplicate_id FROM {s}.incident WHERE duplicate_id IS NOT NULL',
  },
]);
