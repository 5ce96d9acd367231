// Participants read with their contact and every role they held: in full (ParticipantRead) and in
// the minimal form minimal incidents nest (the contact without its filters).
import type { RefTarget } from '../../crud/refs.ts';
import { groupReader, shallowReader, type ReadDef } from '../../crud/reader.ts';
import { individualGroup, individualTarget } from '../individual/group.ts';
import { individualContact } from '../individual/table.ts';
import { participant, participantRole } from '../lifecycle/table.ts';
import { ParticipantRead, ParticipantReadMinimal } from './schema.ts';

export const participantTarget: RefTarget = {
  table: participant,
  model: 'Participant',
  label: 'Participant',
  projectScoped: false,
  fields: { id: 'int', team: 'text', department: 'text', location: 'text', added_reason: 'text', active: 'bool' },
};

const roles = { participant_roles: { table: participantRole, column: 'participant_id' } };

const participantDef: ReadDef = {
  table: participant,
  projectScoped: false,
  refs: { individual: { column: 'individual_contact_id', target: individualTarget, read: () => groupReader(individualGroup) } },
  children: roles,
};

const participantMinimalDef: ReadDef = {
  table: participant,
  projectScoped: false,
  refs: { individual: { column: 'individual_contact_id', target: individualTarget, read: () => shallowReader(individualContact) } },
  children: roles,
};

/** ParticipantRead by participant id. */
export const participantReader = () => groupReader(participantDef, ParticipantRead);
/** ParticipantReadMinimal by participant id. */
export const participantMinimalReader = () => groupReader(participantMinimalDef, ParticipantReadMinimal);
