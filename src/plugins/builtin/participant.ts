// Muster's own participant resolver (Dispatch's `dispatch-participant-resolver`): the contacts,
// teams and services of the project whose search filters match the record. Muster finds them and
// lends them through the directory; the plugin takes them as they are.
import type { ParticipantPlugin } from '../types.ts';

export const participantPlugin: ParticipantPlugin = {
  slug: 'muster-participant-resolver',
  title: 'Muster Plugin - Participant Resolver',
  type: 'participant',
  version: '0.1.0',
  author: 'Muster',
  author_url: 'https://github.com/muster-project/muster',
  description: 'Routes the individuals, teams and services whose search filters match an incident or a case.',
  enabledByDefault: true,
  resolve(subject, directory) {
    return directory.matching(subject);
  },
};
