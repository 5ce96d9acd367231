// Muster's own participant resolver (Dispatch's `dispatch-participant-resolver`): the contacts,
// teams and services of the project whose search filters match the record. Muster finds them and
// lends them through the directory; the plugin takes them as they are.
//
// Its event is what participants do on the record in Muster: each entry of the timeline they wrote
// (a change through the API, an event added by hand). Muster counts those itself, from the timeline.
import { authoredByMuster } from './authored.ts';
import type { ParticipantPlugin } from '../types.ts';

/** The slug of the participants' own activity, which case costs count from the timeline. */
export const TIMELINE_ACTIVITY = 'muster-timeline-activity';

export const participantPlugin: ParticipantPlugin = {
  slug: 'muster-participant-resolver',
  title: 'Muster Plugin - Participant Resolver',
  type: 'participant',
  ...authoredByMuster,
  description: 'Routes the individuals, teams and services whose search filters match an incident or a case.',
  enabledByDefault: true,
  events: [
    {
      slug: TIMELINE_ACTIVITY,
      name: 'Muster Timeline Activity',
      description: 'A change a participant makes to the incident or case in Muster: each entry of its timeline they wrote.',
    },
  ],
  resolve(subject, directory) {
    return directory.matching(subject);
  },
};
