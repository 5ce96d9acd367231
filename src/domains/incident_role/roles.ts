// The roles a participant can hold, in incidents and cases alike.
import { StringEnum } from '../search_filter/schema.ts';

export const PARTICIPANT_ROLES = ['Assignee', 'Incident Commander', 'Liaison', 'Scribe', 'Participant', 'Observer', 'Reporter'] as const;
export type ParticipantRole = (typeof PARTICIPANT_ROLES)[number];
export const ParticipantRoleType = StringEnum(PARTICIPANT_ROLES, 'ParticipantRoleType');
