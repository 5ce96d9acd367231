// POST /{organization}/cases/{case_id}/false-positive: a case a signal opened closed as a false
// positive with its reason, and with `similar` the same signal's other open cases too, each with its
// timeline; other signals' cases, closed ones and those the caller may not edit are left alone.
import { beforeAll, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { useWorld } from '../../../test/worlds/world.ts';

const w = useWorld();
const api = (method: string, path: string, body?: unknown, token = w.admin) => call(w.t.app, method, `/default${path}`, { token, body });

let travel: number[];
let other: number;

beforeAll(async () => {
  for (const [name, variant] of [
    ['Impossible travel', 'impossible-travel'],
    ['Port scan', 'port-scan'],
  ]) {
    const signal = await api('POST', '/signals', { name, owner: 'secops', variant, external_id: variant, enabled: true, project: { name: 'default' } });
    expect(signal.status).toBe(200);
  }
  const open = async (raw: Record<string, unknown>) => {
    const res = await api('POST', '/signals/instances', { project: { name: 'default' }, raw });
    expect(res.status).toBe(200);
    return res.body.case.id as number;
  };
  travel = [];
  for (const user of ['ana', 'ben', 'cy', 'dee']) travel.push(await open({ variant: 'impossible-travel', user: `${user}@corp.example` }));
  other = await open({ variant: 'port-scan', host: 'web-1' });
  expect(new Set([...travel, other]).size).toBe(5);
});

const status = async (id: number) => (await api('GET', `/cases/${id}`)).body as { status: string; resolution: string; resolution_reason: string };

it('refuses a false positive without a reason, in the contract error shape', async () => {
  for (const body of [{}, { reason: '' }, { reason: '   ' }]) {
    const res = await api('POST', `/cases/${travel[0]}/false-positive`, body);
    expect(res.status).toBe(422);
    expect(res.body.detail[0].loc).toEqual(['body', 'reason']);
  }
  expect((await status(travel[0])).status).not.toBe('Closed');
  expect((await api('POST', '/cases/999999/false-positive', { reason: 'x' })).status).toBe(404);
});

it('closes one case with its reason, and the timeline says so', async () => {
  const res = await api('POST', `/cases/${travel[3]}/false-positive`, { reason: 'dee travels with a VPN' });
  expect(res.status).toBe(200);
  expect(res.body.closed.map((c: { id: number }) => c.id)).toEqual([travel[3]]);
  expect(await status(travel[3])).toMatchObject({ status: 'Closed', resolution_reason: 'False Positive', resolution: 'dee travels with a VPN' });
  const events = (await api('GET', `/cases/${travel[3]}`)).body.events as { description: string }[];
  expect(events.some((e) => /Closed/.test(e.description))).toBe(true);
  // The others stay open.
  expect((await status(travel[1])).status).not.toBe('Closed');
});

it("with similar, closes the same signal's open cases at once; another signal's and a Member's lack of rights leave theirs", async () => {
  // A Member who takes part in none of them may not mark them.
  expect((await api('POST', `/cases/${travel[0]}/false-positive`, { reason: 'noise', similar: true }, w.member)).status).toBe(403);
  const res = await api('POST', `/cases/${travel[0]}/false-positive`, { reason: 'the VPN exit again', similar: true });
  expect(res.status).toBe(200);
  expect(res.body.closed.map((c: { id: number }) => c.id)).toEqual([travel[0], travel[1], travel[2]]);
  for (const id of travel.slice(0, 3)) {
    expect(await status(id)).toMatchObject({ status: 'Closed', resolution_reason: 'False Positive', resolution: 'the VPN exit again' });
  }
  // Closed before: its own reason stays.
  expect((await status(travel[3])).resolution).toBe('dee travels with a VPN');
  expect((await status(other)).status).not.toBe('Closed');
});
