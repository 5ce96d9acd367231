// An incident's meeting as a Google Calendar event with Google Meet: events.insert with a Meet
// conference request (conferenceDataVersion=1), the incident's people as attendees, starting now.
// The event's id comes from the job's idempotency key, so a retried job finds the event it made
// instead of making a second one. The meeting ends with the event deleted.
import { createHash } from 'node:crypto';
import type { calendar_v3 } from '@googleapis/calendar';
import { Type } from '@sinclair/typebox';
import { authoredByMuster } from '../authored.ts';
import { VendorError } from '../../../lib/outbound/vendor.ts';
import type { ConferencePlugin, Configuration, PluginEnv } from '../../types.ts';
import { apiOptions, SCOPES } from './auth.ts';
import { checkGoogle } from './check.ts';
import { googleConfiguration } from './config.ts';
import { text } from '../configuration-text.ts';
import { call, callUnlessGone } from './errors.ts';

const calendarOf = async (config: Configuration, env: PluginEnv) =>
  (await import('@googleapis/calendar')).calendar({ version: 'v3', ...(await apiOptions(config, env, SCOPES.calendar)) });

/** An event id Calendar accepts (base32hex letters, 5 to 1024) made from the job's key. */
const eventIdOf = (key: string) => `muster${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;

const calendarIdOf = (config: Configuration) => text(config, 'calendar_id') ?? 'primary';

export const googleCalendarPlugin: ConferencePlugin = {
  slug: 'google-calendar-conference',
  title: 'Google Workspace Plugin - Calendar and Meet',
  type: 'conference',
  ...authoredByMuster,
  description: "Makes each incident's meeting: a Google Calendar event with Google Meet, its people invited.",
  check: checkGoogle(SCOPES.calendar),
  configuration: googleConfiguration({
    calendar_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 300, description: 'Calendar the events are made in (default the user\u2019s primary calendar)' }),
    ),
    duration_minutes: Type.Optional(Type.Integer({ minimum: 15, maximum: 1440, default: 60, description: 'How long the event lasts in calendars' })),
  }),
  async create(subject, participants, config, env) {
    const calendar = await calendarOf(config, env);
    const calendarId = calendarIdOf(config);
    const id = eventIdOf(env.idempotencyKey);
    const start = new Date();
    const end = new Date(start.getTime() + (typeof config.duration_minutes === 'number' ? config.duration_minutes : 60) * 60_000);
    const label = subject.name ?? `${subject.kind} ${subject.id}`;
    let event: calendar_v3.Schema$Event;
    try {
      event = await call('Calendar events.insert', () =>
        calendar.events.insert({
          calendarId,
          conferenceDataVersion: 1,
          sendUpdates: 'all',
          requestBody: {
            id,
            summary: `${label}: ${subject.title}`.slice(0, 250),
            description: `${subject.description}\n\n${subject.weblink}`,
            start: { dateTime: start.toISOString() },
            end: { dateTime: end.toISOString() },
            attendees: [...new Set(participants.map((e) => e.toLowerCase()))].map((email) => ({ email })),
            conferenceData: { createRequest: { requestId: id, conferenceSolutionKey: { type: 'hangoutsMeet' } } },
          },
        }),
      );
    } catch (err) {
      // A retry of a job whose event was made: Calendar refuses the id (409); the event is the one made.
      if (!(err instanceof VendorError && err.status === 409)) throw err;
      event = await call('Calendar events.get', () => calendar.events.get({ calendarId, eventId: id }));
    }
    const video = event.conferenceData?.entryPoints?.find((p) => p.entryPointType === 'video');
    const link = event.hangoutLink ?? video?.uri;
    // Meet makes the meeting a moment after the event: the job retries until it has.
    if (!link)
      throw new VendorError(
        `Google Meet has not made the meeting of event ${event.id ?? id} yet (${event.conferenceData?.createRequest?.status?.statusCode ?? 'no conference'})`,
        0,
      );
    return {
      resource_id: event.id ?? id,
      resource_type: 'google-calendar-event',
      weblink: link,
      conference_id: event.conferenceData?.conferenceId ?? event.id ?? id,
      conference_challenge: video?.pin ?? video?.passcode ?? null,
    };
  },
  async delete(conference, config, env) {
    const calendar = await calendarOf(config, env);
    await callUnlessGone('Calendar events.delete', () =>
      calendar.events.delete({ calendarId: calendarIdOf(config), eventId: conference.resource_id, sendUpdates: 'all' }),
    );
  },
};
