// Muster's own participant groups: an incident's tactical and notifications groups, named after the
// record, with no member list of their own: a message to one goes to the record's people (or
// followers) as they are when it is sent, through the e-mail plugin.
import { Type } from '@sinclair/typebox';
import { authoredByMuster } from './authored.ts';
import type { ParticipantGroupPlugin } from '../types.ts';

export const participantGroupPlugin: ParticipantGroupPlugin = {
  slug: 'muster-participant-group',
  title: 'Muster Plugin - Participant Groups',
  type: 'participant_group',
  ...authoredByMuster,
  description: "Keeps each incident's tactical and notifications groups, their members following its participants and subscribers.",
  enabledByDefault: true,
  configuration: Type.Object(
    {
      domain: Type.Optional(
        Type.String({
          minLength: 1,
          maxLength: 253,
          pattern: '^[A-Za-z0-9.-]+$',
          description: 'Domain of the groups\u2019 addresses (default groups.muster.invalid)',
        }),
      ),
    },
    { additionalProperties: false },
  ),
  create(subject, kind, config, env) {
    const domain = typeof config.domain === 'string' && config.domain ? config.domain : 'groups.muster.invalid';
    const base = (subject.name ?? `${env.namePrefix}-${subject.kind}-${subject.id}`).toLowerCase().replace(/[^a-z0-9._-]+/g, '-');
    const name = kind === 'tactical' ? base : `${base}-notifications`;
    return {
      name,
      email: `${name}@${domain}`,
      resource_id: name,
      resource_type: `muster-${kind}-group`,
      weblink: null,
      description: kind === 'tactical' ? `The people of ${subject.name ?? subject.title}` : `Those who follow ${subject.name ?? subject.title}`,
    };
  },
  recipients: (_group, members) => members,
};
