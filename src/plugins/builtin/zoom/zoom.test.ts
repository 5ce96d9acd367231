// Zoom meetings end to end: the default project's zoom-conference instance configured over the API
// and pointed at a local Zoom (OAuth server and REST API), incidents written over the API, the real
// job workers, and what the local Zoom received; failures (bad credentials, rate limits, Zoom
// down) fail the meeting's job with a reason and never the write.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { PeerRequest } from '../../../../test/peers/http-peer.ts';
import { startZoom, type ZoomPeer } from '../../../../test/peers/zoom.ts';
import {
  channelMessages,
  configureConference,
  drainMeetings,
  meetingIncidents,
  meetingJobs,
  retryAsDeclared,
  retryNever,
  retryOnce,
  timeline,
} from '../../../../test/worlds/meetings.ts';
import { useSlackWorld } from '../../../../test/worlds/slack.ts';

const w = useSlackWorld();
const APP = { accountId: 'acct-4Zq', clientId: 'client-8Hx', clientSecret: 'zoom-secret-never-shown', users: ['meetings@example.com'] };
let zoom: ZoomPeer;
/** The token request of the check on save. */
let savedToken: PeerRequest;

const zoomConfig = (extra: Record<string, unknown> = {}) => ({
  account_id: APP.accountId,
  client_id: APP.clientId,
  client_secret: APP.clientSecret,
  host: 'meetings@example.com',
  api_url: zoom.url,
  oauth_url: zoom.url,
  ...extra,
});

const { create, read, setStatus } = meetingIncidents(w, 'owner');
const requests = (method: string, path: RegExp) => zoom.requests.filter((r) => r.method === method && path.test(r.path));

beforeAll(async () => {
  zoom = await startZoom({ ...APP, users: [...APP.users] });
  const res = await configureConference(w, 'zoom-conference', zoomConfig());
  expect(res.status).toBe(200);
  // Shown masked, never in clear.
  expect(JSON.stringify(res.body)).not.toContain(APP.clientSecret);
  savedToken = zoom.requests.find((r) => r.path === '/oauth/token')!;
});
afterAll(() => zoom?.close());
beforeEach(async () => {
  await drainMeetings(w);
  zoom.requests.length = 0;
});

describe('a Zoom meeting per incident', () => {
  it('is made after the write, hosted by the configured user, in the read, on the timeline and in the channel; deleted on close', async () => {
    const incident = await create('Checkout down');
    expect(incident.conference).toBeNull();
    await drainMeetings(w);

    // The token came with the save's check: the Server-to-Server grant, the app's credentials as Basic credentials.
    const token = savedToken;
    expect(requests('POST', /^\/oauth\/token$/)).toEqual([]);
    expect(token.headers.authorization).toBe(`Basic ${Buffer.from(`${APP.clientId}:${APP.clientSecret}`).toString('base64')}`);
    expect(Object.fromEntries(token.form!)).toEqual({ grant_type: 'account_credentials', account_id: APP.accountId });

    const [made] = requests('POST', /^\/v2\/users\/[^/]+\/meetings$/);
    expect(made.path).toBe('/v2/users/meetings%40example.com/meetings');
    expect(made.headers.authorization).toBe(`Bearer ${zoom.tokens.at(-1)}`);
    expect(made.body).toMatchObject({
      topic: `${incident.name}: Checkout down`,
      type: 2,
      duration: 60,
      password: expect.stringMatching(/^[a-zA-Z0-9]{10}$/),
      settings: { join_before_host: true, waiting_room: false },
    });
    expect(made.body.agenda).toContain(`/default/incidents/${incident.name}`);

    const meeting = [...zoom.meetings.values()].at(-1)!;
    const after = await read(incident.id);
    expect(after.conference).toMatchObject({
      resource_id: String(meeting.id),
      resource_type: 'zoom-meeting',
      weblink: meeting.join_url,
      conference_id: String(meeting.id),
      conference_challenge: made.body.password,
    });
    expect(await timeline(w, incident.id)).toContain(`Meeting created: ${meeting.join_url.split('?')[0]}`);
    expect(await channelMessages(w, incident.id)).toContainEqual(expect.stringContaining(meeting.join_url));

    // Stable keeps the meeting; Closed deletes it from Zoom.
    expect((await setStatus(incident.id, 'Stable')).status).toBe(200);
    await drainMeetings(w);
    expect(requests('DELETE', /./)).toEqual([]);
    expect((await setStatus(incident.id, 'Closed')).status).toBe(200);
    await drainMeetings(w);
    expect(requests('DELETE', /./).map((r) => [r.path, r.headers.authorization])).toEqual([[`/v2/meetings/${meeting.id}`, `Bearer ${zoom.tokens.at(-1)}`]]);
    expect(zoom.meetings.has(meeting.id)).toBe(false);
    expect(await timeline(w, incident.id)).toContain('Meeting ended: the incident is closed');
  });

  it('keeps the token until it expires: a second meeting asks for none', async () => {
    await create('Second');
    await drainMeetings(w);
    expect(requests('POST', /^\/oauth\/token$/)).toEqual([]);
    expect(requests('POST', /meetings$/)).toHaveLength(1);
  });

  it('a meeting Zoom no longer has is gone already: closing succeeds', async () => {
    const incident = await create('Deleted by hand');
    await drainMeetings(w);
    zoom.meetings.clear();
    await setStatus(incident.id, 'Closed');
    await drainMeetings(w);
    expect(requests('DELETE', /./).map((r) => r.headers.authorization?.startsWith('Bearer '))).toEqual([true]);
    expect(await timeline(w, incident.id)).toContain('Meeting ended: the incident is closed');
  });

  it('a revoked token is dropped: the retry asks for a new one and makes the meeting', async () => {
    zoom.revokeTokens();
    const incident = await create('Rotated secret');
    await drainMeetings(w, { retryNow: true });
    expect(requests('POST', /meetings$/).map((r) => r.headers.authorization)).toEqual([expect.any(String), `Bearer ${zoom.tokens.at(-1)}`]);
    expect((await read(incident.id)).conference).toMatchObject({ resource_type: 'zoom-meeting' });
  });
});

describe('saving a configuration', () => {
  it('is refused (422, on the field) when Zoom refuses the credentials or the account', async () => {
    const secret = await configureConference(w, 'zoom-conference', zoomConfig({ client_secret: 'not-the-secret' }));
    expect(secret.status).toBe(422);
    expect(secret.body.detail).toEqual([expect.objectContaining({ loc: ['body', 'configuration', 'client_secret'], type: 'value_error.plugin_refused' })]);
    expect(secret.body.detail[0].msg).toContain("Zoom refused the app's credentials (401)");
    expect(JSON.stringify(secret.body)).not.toContain('not-the-secret');
    const account = await configureConference(w, 'zoom-conference', zoomConfig({ account_id: 'someone-else' }));
    expect(account.status).toBe(422);
    expect(account.body.detail).toEqual([
      expect.objectContaining({ loc: ['body', 'configuration', 'account_id'], msg: expect.stringContaining('Invalid account_id') }),
    ]);
    // The working configuration is still the one stored: meetings go on.
    const incident = await create('After a refused save');
    await drainMeetings(w);
    expect((await read(incident.id)).conference).toMatchObject({ resource_type: 'zoom-meeting' });
  });

  it('goes through when Zoom is down: the meeting job will say what is wrong', async () => {
    zoom.fail(/^POST \/oauth\/token$/, { status: 503, body: { reason: 'down', error: 'server_error' } });
    const res = await configureConference(w, 'zoom-conference', zoomConfig({ host: 'meetings@example.com', client_id: APP.clientId }));
    expect(res.status).toBe(200);
  });
});

describe('when Zoom refuses or fails', () => {
  afterAll(() => retryAsDeclared(w));

  it('a rate limit (429) is retried no sooner than its Retry-After; one meeting is made', async () => {
    zoom.fail(/^POST \/v2\/users\/.+\/meetings$/, { status: 429, body: { code: 429, message: 'Too many requests.' }, headers: { 'Retry-After': '2' } });
    const incident = await create('Rate limited');
    await drainMeetings(w);
    const attempts = requests('POST', /meetings$/);
    expect(attempts).toHaveLength(2);
    expect(attempts[1].at - attempts[0].at).toBeGreaterThanOrEqual(1_900);
    expect(zoom.meetings.size).toBeGreaterThan(0);
    expect((await read(incident.id)).conference).toMatchObject({ resource_type: 'zoom-meeting' });
  });

  it('Zoom down (503), then up: the retry makes the meeting', async () => {
    zoom.fail(/meetings$/, { status: 503, body: { code: 503, message: 'Service unavailable' } });
    const incident = await create('Zoom flaky');
    await drainMeetings(w, { retryNow: true });
    expect(requests('POST', /meetings$/)).toHaveLength(2);
    expect((await read(incident.id)).conference).toMatchObject({ resource_type: 'zoom-meeting' });
  });

  it('credentials Zoom refuses (401) end the job failed with what to check; the incident stands', async () => {
    await retryOnce(w);
    zoom.app.clientSecret = 'rotated-elsewhere';
    zoom.revokeTokens();
    try {
      const incident = await create('Bad secret');
      await drainMeetings(w, { retryNow: true });
      const [failed] = (await meetingJobs(w)).filter((j) => j.state === 'failed');
      expect(JSON.stringify(failed.output)).toContain("Zoom refused the app's credentials (401)");
      expect(JSON.stringify(failed.output)).toContain('client secret');
      expect(JSON.stringify(failed.output)).not.toContain('rotated-elsewhere');
      expect((await read(incident.id)).conference).toBeNull();
      expect((await read(incident.id)).title).toBe('Bad secret');
    } finally {
      zoom.app.clientSecret = APP.clientSecret;
    }
  });

  it('a delete Zoom keeps failing (500) ends the close job failed; the incident stays Closed', async () => {
    await retryAsDeclared(w);
    const incident = await create('Cannot delete');
    await drainMeetings(w);
    await retryOnce(w);
    zoom.fail(/^DELETE /, { status: 500, body: { code: 500, message: 'Internal error' } }, 2);
    expect((await setStatus(incident.id, 'Closed')).status).toBe(200);
    await drainMeetings(w, { retryNow: true });
    const failed = (await meetingJobs(w)).find((j) => j.name === 'conference-close' && j.state === 'failed');
    expect(JSON.stringify(failed?.output)).toContain('Zoom is unavailable (500) deleting the meeting');
    expect((await read(incident.id)).status).toBe('Closed');
  });

  it('Zoom not answering ends the close job failed with "did not answer"', async () => {
    await retryAsDeclared(w);
    const incident = await create('Silent Zoom');
    await drainMeetings(w);
    // One attempt, which waits out the outbound client's time limit (10 s).
    await retryNever(w);
    zoom.fail(/^DELETE /, 'hang', 1);
    await setStatus(incident.id, 'Closed');
    await drainMeetings(w, { retryNow: true });
    const failed = (await meetingJobs(w)).find((j) => j.name === 'conference-close' && j.state === 'failed' && JSON.stringify(j.output).includes('did not'));
    expect(JSON.stringify(failed?.output)).toContain('Zoom did not answer deleting the meeting: no answer in time');
  });
});
