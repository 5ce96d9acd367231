import { Type } from '@sinclair/typebox';
import { DateTime, Email, Id, Opt, RefShape, withoutRequired } from '../../server/shapes.ts';
import { IndividualContactRead } from '../individual/schema.ts';

const roleFields = {
  id: Id(),
  role: Type.String(),
  assumed_at: DateTime(),
  renounced_at: Opt(DateTime()),
  activity: Type.Integer(),
};
export const ParticipantRoleRead = Type.Object(roleFields, { title: 'ParticipantRoleRead' });
export const ParticipantRoleReadMinimal = Type.Object(roleFields, { title: 'ParticipantRoleReadMinimal' });

/** A contact nested in minimal participants: its own fields, no filters. */
export const IndividualContactReadMinimal = Type.Object(
  {
    id: Id(),
    email: Email(),
    name: Opt(Type.String()),
    title: Opt(Type.String()),
    company: Opt(Type.String()),
    contact_type: Opt(Type.String()),
    notes: Opt(Type.String()),
    owner: Opt(Type.String()),
    weblink: Opt(Type.String()),
    external_id: Opt(Type.String()),
    mobile_phone: Opt(Type.String()),
    office_phone: Opt(Type.String()),
    is_active: Type.Boolean({ default: true }),
    is_external: Type.Boolean({ default: false }),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'IndividualContactReadMinimal' },
);

const participantFields = {
  id: Id(),
  team: Opt(Type.String()),
  department: Opt(Type.String()),
  location: Opt(Type.String()),
  added_reason: Opt(Type.String()),
};
export const ParticipantRead = Type.Object(
  { ...participantFields, individual: IndividualContactRead, participant_roles: Type.Array(ParticipantRoleRead, { default: [] }) },
  { title: 'ParticipantRead' },
);
export const ParticipantReadMinimal = Type.Object(
  { ...participantFields, individual: IndividualContactReadMinimal, participant_roles: Type.Array(ParticipantRoleReadMinimal, { default: [] }) },
  { title: 'ParticipantReadMinimal' },
);

/**
 * A person named in a body (an incident's commander or reporter, a task's owner): by the email of
 * `individual`; the other fields are accepted and ignored.
 */
export const ParticipantUpdate = Type.Object(
  {
    team: Opt(Type.String()),
    department: Opt(Type.String()),
    location: Opt(Type.String()),
    added_reason: Opt(Type.String()),
    individual: Opt(withoutRequired(RefShape(IndividualContactRead))),
  },
  { title: 'ParticipantUpdate', additionalProperties: true },
);
