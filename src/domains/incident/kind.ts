// Incidents as the lifecycle kit sees them: after any change of their people, the participant
// summary (most common team and location) and the response cost follow, their chat channel
// invites whoever joined, and their folder and groups outside Muster let them in; their list is what saved search filters are matched against.
import { eq, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/connection.ts';
import { peopleChanged } from '../conversation/enqueue.ts';
import { membershipsChanged } from '../plugin/memberships.ts';
import { recomputeResponseCost } from './response-cost.ts';
import { INCIDENT_ROWS, type RecordKind } from '../lifecycle/kind.ts';
import { recordList } from '../lifecycle/list.ts';
import { incident, participant } from '../lifecycle/table.ts';
import { INCIDENT_LIST } from './list.ts';

/**
 * The incident's participants_team and participants_location become the most common among its
 * participants; its response cost is recomputed; its channel invites newcomers; its folder and
 * groups outside Muster follow its people.
 */
async function participantsChanged(tx: Executor, incidentId: number): Promise<void> {
  const mostCommon = (col: PgColumn) =>
    sql<
      string | null
    >`(SELECT ${col} FROM ${participant} WHERE ${participant.incident_id} = ${incidentId} AND ${col} IS NOT NULL GROUP BY ${col} ORDER BY count(*) DESC, ${col} LIMIT 1)`;
  await tx
    .update(incident)
    .set({ participants_team: mostCommon(participant.team), participants_location: mostCommon(participant.location) })
    .where(eq(incident.id, incidentId));
  await recomputeResponseCost(tx, incidentId);
  await peopleChanged(tx, INCIDENT_ROWS, incidentId);
  await membershipsChanged(tx, 'incident', incidentId);
}

/** What `filter` and `sortBy[]` reach from an incident. */
export const incidentList = recordList(INCIDENT_ROWS, INCIDENT_LIST);

export const INCIDENT: RecordKind<typeof incident> = { ...INCIDENT_ROWS, peopleChanged: participantsChanged, list: incidentList };
