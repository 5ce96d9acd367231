// What `filter` and `sortBy[]` reach from an incident (Dispatch's model names). The incident kind
// (kind.ts) builds its list from this, so saved search filters match what the list's filter does.
import { sql } from 'drizzle-orm';
import { individualContact } from '../individual/table.ts';
import type { RecordListSpec } from '../lifecycle/list.ts';
import { incident, participant } from '../lifecycle/table.ts';
import { INCIDENT_ASSESSMENT } from './assessment.ts';
import { incidentTag } from './table.ts';

export const INCIDENT_LIST: RecordListSpec = {
  model: 'Incident',
  assessment: INCIDENT_ASSESSMENT,
  tags: { table: incidentTag, owner: incidentTag.incident_id, tag: incidentTag.tag_id },
  fields: {
    participants_team: 'text',
    participants_location: 'text',
    commanders_location: 'text',
    reporters_location: 'text',
  },
  // People taking part (commander and reporter included), as Dispatch filters "commander" and "participant".
  people: (c) =>
    sql`EXISTS (SELECT 1 FROM ${participant} JOIN ${individualContact} ON ${individualContact.id} = ${participant.individual_contact_id} WHERE ${participant.incident_id} = ${incident.id} AND ${c})`,
};
