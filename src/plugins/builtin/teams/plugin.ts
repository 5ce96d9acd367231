// Microsoft Teams meetings (type `conference`): an online meeting per incident through Microsoft
// Graph (POST /users/{organizer}/onlineMeetings), organized by the configured user on behalf of the
// app registration, its people invited by their user principal names; its link in the incident's
// `conference` and chat channel, and deleted when the incident closes.
import { authoredByMuster } from '../authored.ts';
import { type ConferencePlugin, type Configuration, ConfigurationRefused, type PluginEnv, type Subject } from '../../types.ts';
import { VendorError } from '../../../lib/outbound/vendor.ts';
import { graphToken } from './auth.ts';
import { graphCall } from './graph.ts';
import { teamsConfiguration, teamsSettings } from './settings.ts';

export const TEAMS_MEETING = 'teams-online-meeting';

/** How long the meeting is scheduled for: Teams keeps its link working after that. */
const DURATION_MS = 60 * 60 * 1000;

interface OnlineMeetingWire {
  id: string;
  joinWebUrl: string;
  subject?: string;
  joinMeetingIdSettings?: { joinMeetingId?: string | null; passcode?: string | null } | null;
}

/** The meeting Graph is asked for: the record's name and title, now for an hour, its people as attendees. */
export function onlineMeetingOf(subject: Subject, participants: string[], now = new Date()) {
  return {
    subject: (subject.name ? `${subject.name}: ${subject.title}` : subject.title).slice(0, 255),
    startDateTime: now.toISOString(),
    endDateTime: new Date(now.getTime() + DURATION_MS).toISOString(),
    participants: { attendees: [...new Set(participants)].map((upn) => ({ upn, role: upn === subject.owner ? 'presenter' : 'attendee' })) },
  };
}

const meetingsOf = (config: Configuration) => `/users/${encodeURIComponent(teamsSettings(config).organizer)}/onlineMeetings`;

export const teamsPlugin: ConferencePlugin = {
  slug: 'teams-conference',
  title: 'Microsoft Teams Plugin - Meetings',
  type: 'conference',
  ...authoredByMuster,
  description:
    "Opens a Microsoft Teams meeting for each incident through Microsoft Graph, with the incident's people invited, and deletes it when the incident closes.",
  configuration: teamsConfiguration,

  /**
   * On save: the tenant issues the app a token for Graph (tenant, client and secret right). The
   * tenant refusing them is refused, on the field its AADSTS code names; Microsoft not answering,
   * busy or down lets the save through (the meeting's job will say).
   */
  async check(config, env) {
    try {
      await graphToken(teamsSettings(config), env.outbound, { fresh: true });
    } catch (err) {
      if (!(err instanceof VendorError) || err.status >= 500) return;
      const code = err.detail ?? '';
      const field = /AADSTS900(02|23)/.test(code) ? 'tenant_id' : /AADSTS700016/.test(code) ? 'client_id' : 'client_secret';
      throw new ConfigurationRefused(field, err.message);
    }
  },

  async create(subject, participants, config, env: PluginEnv) {
    const s = teamsSettings(config);
    const meeting = (await graphCall(s, env.outbound, 'creating the online meeting', (graph) =>
      graph.api(meetingsOf(config)).post(onlineMeetingOf(subject, participants)),
    )) as OnlineMeetingWire;
    env.log.info(`Teams meeting ${meeting.id} created`);
    return {
      resource_id: meeting.id,
      resource_type: TEAMS_MEETING,
      weblink: meeting.joinWebUrl,
      conference_id: meeting.joinMeetingIdSettings?.joinMeetingId ?? meeting.id,
      conference_challenge: meeting.joinMeetingIdSettings?.passcode ?? null,
    };
  },

  async delete(conference, config, env) {
    if (conference.resource_type !== TEAMS_MEETING) return;
    const s = teamsSettings(config);
    // One deleted already (404) is gone: nothing to do.
    await graphCall(
      s,
      env.outbound,
      'deleting the online meeting',
      (graph) => graph.api(`${meetingsOf(config)}/${encodeURIComponent(conference.resource_id)}`).delete(),
      [404],
    );
  },
};
