// Feedback on incidents, on the CRUD mechanism: a rating (and a comment) about one incident, given
// by the caller: its participant is the caller's own participant record of the incident (none if
// they take no part), and a body naming another person's is refused. The feedback goes into its
// incident's project, and is seen only by those who may see the incident. An update changes the
// rating and the comment; the incident and the participant stay.
import { and, eq } from 'drizzle-orm';
import type { GroupDef } from '../../crud/group.ts';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { errors, invalid } from '../../server/errors.ts';
import { incidentMinimalReader, incidentTarget } from '../incident/reader.ts';
import { incident } from '../lifecycle/table.ts';
import { incidentVisible, visibleIncidents } from '../incident/visibility.ts';
import { participantReader, participantTarget } from '../participant/reader.ts';
import { INCIDENT } from '../incident/kind.ts';
import { participantByEmail } from '../lifecycle/participants.ts';
import { participant } from '../lifecycle/table.ts';
import { FeedbackCreate, FeedbackPagination, FeedbackRead, FeedbackUpdate } from './schema.ts';
import { feedback } from './table.ts';

/** The incident's project, if the caller may see the incident; 422 as for an unknown one otherwise. */
async function incidentProject(tx: Executor, ctx: Ctx, incidentId: unknown): Promise<number> {
  if (incidentId == null) throw invalid(['incident'], 'field required', 'value_error.missing');
  const [row] = await tx
    .select({ project_id: incident.project_id })
    .from(incident)
    .where(and(eq(incident.id, incidentId as number), visibleIncidents(ctx)));
  if (!row) throw invalid(['incident'], 'Incident not found.', 'value_error.not_found');
  return row.project_id;
}

/**
 * The author: the caller's participant record of the incident, or null when they take no part. A
 * participant named in the body must be one of the incident's (422 otherwise) and the caller's own
 * (403 otherwise): nobody gives feedback in another's name.
 */
async function author(tx: Executor, ctx: Ctx, incidentId: number, participantId: unknown): Promise<number | null> {
  const own = (await participantByEmail(tx, INCIDENT, incidentId, ctx.user.email))?.id ?? null;
  if (participantId == null || participantId === own) return own;
  const [row] = await tx
    .select({ id: participant.id })
    .from(participant)
    .where(and(eq(participant.id, participantId as number), eq(participant.incident_id, incidentId)));
  if (!row) throw invalid(['participant'], 'Participant not found.', 'value_error.not_found');
  throw errors.forbidden("Feedback is given in one's own name: the participant must be the caller.");
}

export const feedbackGroup: GroupDef = {
  path: 'feedback',
  tags: ['feedback'],
  idParam: 'feedback_id',
  thing: 'A feedback entry',
  model: 'Feedback',
  tableName: 'feedback',
  table: feedback,
  shapes: { create: FeedbackCreate, update: FeedbackUpdate, read: FeedbackRead, pagination: FeedbackPagination },
  fields: { id: 'int', rating: 'text', feedback: 'text', created_at: 'timestamp', updated_at: 'timestamp' },
  refs: {
    incident: { column: 'incident_id', target: incidentTarget, read: incidentMinimalReader },
    participant: { column: 'participant_id', target: participantTarget, read: participantReader },
  },
  visibleTo: (ctx) => incidentVisible(ctx, feedback.incident_id),
  hooks: {
    beforeWrite: async (tx, ctx, values, existing) => {
      if (existing) {
        delete values.incident_id;
        delete values.participant_id;
        return;
      }
      values.project_id = await incidentProject(tx, ctx, values.incident_id);
      values.participant_id = await author(tx, ctx, values.incident_id as number, values.participant_id);
    },
  },
};
