// Microsoft Teams meetings end to end: the default project's teams-conference instance configured
// over the API and pointed at a local Microsoft identity platform and Graph, incidents written over
// the API, the real job workers, and what the local peer received; failures (a refused secret, a
// missing access policy, rate limits, Graph down) fail the meeting's job with a reason, never the write.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PeerRequest } from '../../../../test/peers/http-peer.ts';
import { type GraphPeer, startMicrosoftGraph } from '../../../../test/peers/microsoft-graph.ts';
import {
  channelMessages,
  configureConference,
  drainMeetings,
  meetingIncidents,
  meetingJobs,
  retryAsDeclared,
  retryOnce,
  timeline,
} from '../../../../test/worlds/meetings.ts';
import { useSlackWorld } from '../../../../test/worlds/slack.ts';

const w = useSlackWorld();
const APP = {
  tenantId: '72f988bf-86f1-41af-91ab-2d7cd011db47',
  clientId: '6731de76-14a6-49ae-97bc-6eba6914391e',
  clientSecret: 'entra-secret-never-shown',
  organizers: ['incidents@example.com'],
  consented: true,
};
let graph: GraphPeer;
/** The token request of the check on save. */
let savedToken: PeerRequest;

const teamsConfig = (extra: Record<string, unknown> = {}) => ({
  tenant_id: APP.tenantId,
  client_id: APP.clientId,
  client_secret: APP.clientSecret,
  organizer: 'incidents@example.com',
  authority_url: graph.url,
  graph_url: graph.url,
  ...extra,
});

const { create, read, setStatus } = meetingIncidents(w, 'member');
const requests = (method: string, path: RegExp) => graph.requests.filter((r) => r.method === method && path.test(r.path));
const MEETINGS = /^\/v1\.0\/users\/[^/]+\/onlineMeetings$/;

beforeAll(async () => {
  graph = await startMicrosoftGraph({ ...APP, organizers: [...APP.organizers] });
  const res = await configureConference(w, 'teams-conference', teamsConfig());
  expect(res.status).toBe(200);
  expect(JSON.stringify(res.body)).not.toContain(APP.clientSecret);
  savedToken = graph.requests.find((r) => r.path.endsWith('/oauth2/v2.0/token'))!;
});
afterAll(() => graph?.close());
beforeEach(async () => {
  await drainMeetings(w);
  graph.requests.length = 0;
});

describe('a Teams meeting per incident', () => {
  it('is made after the write by the organizer with its people invited, in the read, on the timeline and in the channel; deleted on close', async () => {
    const incident = await create('Payments down');
    expect(incident.conference).toBeNull();
    await drainMeetings(w);

    // The token came with the save's check: the client-credentials grant as MSAL sends it, the secret in the form body, Graph's default scope.
    const token = savedToken;
    expect(requests('POST', /\/oauth2\/v2\.0\/token$/)).toEqual([]);
    expect(token.path).toBe(`/${APP.tenantId}/oauth2/v2.0/token`);
    expect(Object.fromEntries(token.form!)).toMatchObject({
      grant_type: 'client_credentials',
      client_id: APP.clientId,
      client_secret: APP.clientSecret,
      scope: 'https://graph.microsoft.com/.default',
    });

    const [made] = requests('POST', MEETINGS);
    expect(made.path).toBe('/v1.0/users/incidents%40example.com/onlineMeetings');
    expect(made.headers.authorization).toBe(`Bearer ${graph.tokens.at(-1)}`);
    expect(made.body).toMatchObject({ subject: `${incident.name}: Payments down` });
    expect(Date.parse(made.body.endDateTime) - Date.parse(made.body.startDateTime)).toBe(3_600_000);
    expect(made.body.participants.attendees).toEqual(
      expect.arrayContaining([
        { upn: 'owner@example.com', role: 'presenter' },
        { upn: 'member@example.com', role: 'attendee' },
      ]),
    );

    const meeting = [...graph.meetings.values()].at(-1)!;
    expect((await read(incident.id)).conference).toEqual({
      resource_id: meeting.id,
      resource_type: 'teams-online-meeting',
      weblink: meeting.joinWebUrl,
      conference_id: meeting.joinMeetingId,
      conference_challenge: meeting.passcode,
      description: expect.stringContaining('Video conference and phone bridge'),
    });
    expect(await timeline(w, incident.id)).toContain(`Meeting created: ${meeting.joinWebUrl}`);
    expect(await channelMessages(w, incident.id)).toContainEqual(expect.stringContaining(meeting.joinWebUrl));

    expect((await setStatus(incident.id, 'Stable')).status).toBe(200);
    await drainMeetings(w);
    expect(requests('DELETE', /./)).toEqual([]);
    expect((await setStatus(incident.id, 'Closed')).status).toBe(200);
    await drainMeetings(w);
    expect(requests('DELETE', /./).map((r) => [r.path, r.headers.authorization])).toEqual([
      [`/v1.0/users/incidents%40example.com/onlineMeetings/${meeting.id}`, `Bearer ${graph.tokens.at(-1)}`],
    ]);
    expect(graph.meetings.has(meeting.id)).toBe(false);
    expect(await timeline(w, incident.id)).toContain('Meeting ended: the incident is closed');
  });

  it('keeps the token until it expires; a meeting already gone is fine on close', async () => {
    const incident = await create('Second');
    await drainMeetings(w);
    expect(requests('POST', /token$/)).toEqual([]);
    graph.meetings.clear();
    await setStatus(incident.id, 'Closed');
    await drainMeetings(w);
    expect(requests('DELETE', /./)).toHaveLength(1);
    expect(await timeline(w, incident.id)).toContain('Meeting ended: the incident is closed');
  });
});

describe('saving a configuration', () => {
  it('is refused (422) on the field the tenant names: the secret, the client, the tenant', async () => {
    for (const [field, value, words] of [
      ['client_secret', 'not-the-secret', 'AADSTS7000215'],
      ['client_id', '00000000-0000-0000-0000-000000000000', 'AADSTS700016'],
      ['tenant_id', 'no-such-tenant', 'AADSTS90002'],
    ]) {
      const res = await configureConference(w, 'teams-conference', teamsConfig({ [field]: value }));
      expect(res.status, field).toBe(422);
      expect(res.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'configuration', field], type: 'value_error.plugin_refused' })]);
      expect(res.body.detail[0].msg).toContain(words);
      expect(JSON.stringify(res.body)).not.toContain('not-the-secret');
    }
    const incident = await create('After refused saves');
    await drainMeetings(w);
    expect((await read(incident.id)).conference).toMatchObject({ resource_type: 'teams-online-meeting' });
  });
});

describe('when Microsoft refuses or fails', () => {
  afterAll(() => retryAsDeclared(w));

  it('a rate limit (429) is retried no sooner than its Retry-After; one meeting is made', async () => {
    graph.fail(/^POST \/v1\.0\/users\/.+\/onlineMeetings$/, {
      status: 429,
      body: { error: { code: 'TooManyRequests', message: 'Too many requests' } },
      headers: { 'Retry-After': '2' },
    });
    const incident = await create('Rate limited');
    await drainMeetings(w);
    const attempts = requests('POST', MEETINGS);
    expect(attempts).toHaveLength(2);
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(1_900);
    expect((await read(incident.id)).conference).toMatchObject({ resource_type: 'teams-online-meeting' });
  });

  it('Graph down (503), then up: the retry makes the meeting', async () => {
    graph.fail(/onlineMeetings$/, { status: 503, body: { error: { code: 'ServiceNotAvailable', message: 'Service unavailable' } } });
    const incident = await create('Graph flaky');
    await drainMeetings(w, { retryNow: true });
    expect(requests('POST', MEETINGS)).toHaveLength(2);
    expect((await read(incident.id)).conference).toMatchObject({ resource_type: 'teams-online-meeting' });
  });

  it('no application access policy for the organizer (403) ends the job failed saying what to grant; the incident stands', async () => {
    await retryOnce(w);
    graph.app.organizers = [];
    try {
      const incident = await create('No policy');
      await drainMeetings(w, { retryNow: true });
      const failed = (await meetingJobs(w)).find((j) => j.state === 'failed');
      const output = JSON.stringify(failed?.output);
      expect(output).toContain('Microsoft Graph refused the request (403) creating the online meeting');
      expect(output).toContain('Grant-CsApplicationAccessPolicy');
      expect(output).toContain('No application access policy found for this app.');
      expect((await read(incident.id)).conference).toBeNull();
    } finally {
      graph.app.organizers = [...APP.organizers];
    }
  });

  it('a client secret Microsoft refuses (401) ends the job failed with what to check, never quoting it', async () => {
    await retryOnce(w);
    graph.app.clientSecret = 'rotated-elsewhere';
    graph.revokeTokens();
    try {
      const incident = await create('Bad secret');
      await drainMeetings(w, { retryNow: true });
      // The newest failed job: the first attempt met Graph refusing the revoked token, the retry the token endpoint.
      const [failed] = (await meetingJobs(w)).filter((j) => j.state === 'failed');
      const output = JSON.stringify(failed.output);
      expect(output, output).toContain("Microsoft Entra ID refused the app's credentials (401) issuing an access token for Microsoft Graph");
      expect(output).toContain('AADSTS7000215');
      expect(output).not.toContain(APP.clientSecret);
      expect((await read(incident.id)).title).toBe('Bad secret');
    } finally {
      graph.app.clientSecret = APP.clientSecret;
    }
  });
});
