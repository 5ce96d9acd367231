// Bodies of the incident timeline routes (timeline-routes.ts), apart from them so that the web UI
// checks its forms against the same shapes without importing server code.
import { Type } from '@sinclair/typebox';
import { DateTime, Email, Opt } from '../../server/shapes.ts';
import type { ParticipantRole } from '../incident_role/roles.ts';
import { StringEnum } from '../search_filter/schema.ts';

const eventFields = {
  description: Type.String({ minLength: 1 }),
  started_at: Opt(DateTime()),
  source: Opt(Type.String()),
  details: Opt(Type.Object({}, { additionalProperties: true })),
};
export const EventCreateMinimal = Type.Object(eventFields, { title: 'EventCreateMinimal', additionalProperties: false });
export const EventUpdate = Type.Object({ uuid: Type.String({ format: 'uuid' }), ...eventFields }, { title: 'EventUpdate', additionalProperties: false });

/** The roles someone can be given by email; the commander and reporter change through an update. */
export const ADDABLE_ROLES = ['Participant', 'Observer', 'Scribe', 'Liaison'] as const satisfies readonly ParticipantRole[];

export const IncidentParticipantAdd = Type.Object(
  { email: Email(), role: Type.Optional(StringEnum(ADDABLE_ROLES, 'AddableParticipantRole')) },
  { title: 'IncidentParticipantAdd', additionalProperties: false },
);
