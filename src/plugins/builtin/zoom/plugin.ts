// Zoom meetings (type `conference`): a meeting per incident, hosted by the configured user of the
// account whose Server-to-Server OAuth app Muster uses; its link in the incident's `conference`
// and chat channel, and deleted from Zoom when the incident closes.
import { randomInt } from 'node:crypto';
import { authoredByMuster } from '../authored.ts';
import { type ConferencePlugin, type Configuration, ConfigurationRefused, type PluginEnv, type Subject } from '../../types.ts';
import { VendorError } from '../../../lib/outbound/vendor.ts';
import { ZoomApi } from './api.ts';
import { zoomConfiguration, zoomSettings } from './settings.ts';

export const ZOOM_MEETING = 'zoom-meeting';

/** How long the meeting is scheduled for; Zoom keeps it open past that, and people join before its host. */
const DURATION_MINUTES = 60;
/** Zoom's passcodes: at most 10 characters; letters and digits are accepted by every account policy. */
const PASSCODE_LENGTH = 10;
const PASSCODE_ALPHABET = 'abcdefghijkmnpqrstuvwxyzABCDEFGHJKLMNPQRSTUVWXYZ23456789';

const passcode = () => Array.from({ length: PASSCODE_LENGTH }, () => PASSCODE_ALPHABET[randomInt(PASSCODE_ALPHABET.length)]).join('');

const api = (config: Configuration, env: PluginEnv) => new ZoomApi(zoomSettings(config), env.outbound);

/** The meeting Zoom is asked for (POST /users/{userId}/meetings): scheduled now, open before its host joins. */
export function meetingOf(subject: Subject, now = new Date()) {
  const label = subject.name ? `${subject.name}: ${subject.title}` : subject.title;
  return {
    topic: label.slice(0, 200),
    type: 2,
    start_time: now.toISOString().replace(/\.\d{3}Z$/, 'Z'),
    duration: DURATION_MINUTES,
    timezone: 'UTC',
    password: passcode(),
    agenda: `${subject.description}\n\n${subject.weblink}`.slice(-2000),
    settings: { join_before_host: true, jbh_time: 0, waiting_room: false, meeting_authentication: false },
  };
}

export const zoomPlugin: ConferencePlugin = {
  slug: 'zoom-conference',
  title: 'Zoom Plugin - Meetings',
  type: 'conference',
  ...authoredByMuster,
  description: 'Opens a Zoom meeting for each incident through a Server-to-Server OAuth app, and deletes it when the incident closes.',
  configuration: zoomConfiguration,

  /**
   * On save: Zoom issues the app a token (credentials and account right). Zoom refusing them is
   * refused; Zoom not answering, busy or down lets the save through (the meeting's job will say).
   */
  async check(config, env) {
    try {
      await api(config, env).token({ fresh: true });
    } catch (err) {
      if (!(err instanceof VendorError) || (err.status !== 400 && err.status !== 401)) return;
      throw new ConfigurationRefused(/account/i.test(err.detail ?? '') ? 'account_id' : 'client_secret', err.message);
    }
  },

  async create(subject, _participants, config, env) {
    const meeting = await api(config, env).createMeeting(zoomSettings(config).host, meetingOf(subject));
    env.log.info(`Zoom meeting ${meeting.id} created`);
    return {
      resource_id: String(meeting.id),
      resource_type: ZOOM_MEETING,
      weblink: meeting.join_url,
      conference_id: String(meeting.id),
      conference_challenge: meeting.password ?? null,
    };
  },

  async delete(conference, config, env) {
    // A meeting another plugin made (the project changed plugins since) is not Zoom's to delete.
    if (conference.resource_type !== ZOOM_MEETING) return;
    await api(config, env).deleteMeeting(conference.resource_id);
  },
};
