// Incidents as the lifecycle kit sees them: after any change of their people, the participant
// summary (most common team and location) and the response cost follow.
import { eq, sql } from 'drizzle-orm';
import type { PgColumn } from 'drizzle-orm/pg-core';
import type { Executor } from '../../db/connection.ts';
import { recomputeResponseCost } from '../incident_cost/response-cost.ts';
import type { RecordKind } from '../lifecycle/kind.ts';
import { incident, participant } from '../lifecycle/table.ts';

/** The incident's participants_team and participants_location become the most common among its participants; its response cost is recomputed. */
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
}

export const INCIDENT: RecordKind<typeof incident> = { name: 'incident', ownerColumn: 'incident_id', table: incident, peopleChanged: participantsChanged };
