// Restricted incidents stay hidden at every depth of every nested read: duplicates of duplicates,
// the incident nested in a task or a feedback entry, full and minimal list items, a case's incidents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { api, createWorld, type World } from '../../../test/worlds/incidents.ts';

let w: World;
let a: ReturnType<typeof api>;
let restricted: any;
let open: any;
let open2: any;
let taskId: number;
let feedbackId: number;
let caseId: number;

const get = (path: string, token = w.member, query: Record<string, any> = {}) => call(w.t.app, 'GET', `/default/${path}`, { token, query });
/** Every incident id nested anywhere in a read object, under `incident`, `duplicates` or `incidents`. */
function nestedIds(value: unknown, out = new Set<number>()): Set<number> {
  if (Array.isArray(value)) for (const v of value) nestedIds(v, out);
  else if (value && typeof value === 'object') {
    for (const [key, v] of Object.entries(value)) {
      if (key === 'incident' && v && typeof v === 'object') out.add((v as { id: number }).id);
      if ((key === 'duplicates' || key === 'incidents') && Array.isArray(v)) for (const d of v) out.add(d.id);
      nestedIds(v, out);
    }
  }
  return out;
}

beforeAll(async () => {
  w = await createWorld();
  a = api(w);
  restricted = (await a.create({ title: 'Restricted one', visibility: 'Restricted' }, w.owner)).body;
  open = (await a.create({ title: 'Open one' }, w.owner)).body;
  open2 = (await a.create({ title: 'Open two' }, w.owner)).body;
  expect((await a.edit(open.id, { duplicates: [{ id: restricted.id }] })).status).toBe(200);
  expect((await a.edit(open2.id, { duplicates: [{ id: open.id }] })).status).toBe(200);
  const task = await call(w.t.app, 'POST', '/default/tasks', { token: w.owner, body: { incident: { id: open.id }, description: 'Look' } });
  expect(task.status).toBe(200);
  taskId = task.body.id;
  const feedback = await call(w.t.app, 'POST', '/default/feedback', { token: w.owner, body: { incident: { id: open.id }, feedback: 'Fine' } });
  expect(feedback.status).toBe(200);
  feedbackId = feedback.body.id;
  const created = await call(w.t.app, 'POST', '/default/cases', { token: w.owner, body: { title: 'A case', description: 'd' } });
  caseId = created.body.id;
  const escalated = await call(w.t.app, 'PUT', `/default/cases/${caseId}/escalate`, {
    token: w.owner,
    body: { title: 'Escalated', description: 'From a case.' },
  });
  expect(escalated.status).toBe(200);
  const inc = escalated.body;
  expect((await a.edit(inc.id, { visibility: 'Open', duplicates: [{ id: open.id }] })).status).toBe(200);
});
afterAll(() => w.t.close());

describe('restricted incidents in nested reads', () => {
  it('a duplicate of a duplicate is left out (GET /incidents/{id})', async () => {
    const res = await a.get(open2.id);
    expect(res.body.duplicates.map((d: any) => d.id)).toEqual([open.id]);
    expect(res.body.duplicates[0].duplicates).toEqual([]);
    expect(nestedIds(res.body).has(restricted.id)).toBe(false);
    const owners = await a.get(open2.id, w.owner);
    expect(owners.body.duplicates[0].duplicates.map((d: any) => d.id)).toEqual([restricted.id]);
  });

  it('lists, minimal and expanded, leave it out at every depth', async () => {
    for (const expand of [false, true]) {
      const res = await a.list({ expand });
      expect(res.status).toBe(200);
      const ids = res.body.items.map((i: any) => i.id);
      expect(ids).toContain(open.id);
      expect(nestedIds(res.body.items).has(restricted.id)).toBe(false);
      expect(res.body.items.find((i: any) => i.id === open.id).duplicates).toEqual([]);
      const owners = await a.list({ expand }, w.owner);
      expect(owners.body.items.find((i: any) => i.id === open.id).duplicates.map((d: any) => d.id)).toEqual([restricted.id]);
    }
  });

  it("a task's and a feedback entry's incident carry no restricted duplicate", async () => {
    const tasks = await get('tasks', w.member, { itemsPerPage: -1 });
    expect(tasks.body.items.map((t: any) => t.id)).toContain(taskId);
    expect(nestedIds(tasks.body.items).has(restricted.id)).toBe(false);
    expect(tasks.body.items.find((t: any) => t.id === taskId).incident.duplicates).toEqual([]);
    const feedback = await get(`feedback/${feedbackId}`);
    expect(feedback.status).toBe(200);
    expect(feedback.body.incident.duplicates).toEqual([]);
    expect(nestedIds((await get('feedback', w.member, { itemsPerPage: -1 })).body.items).has(restricted.id)).toBe(false);
    expect((await get(`feedback/${feedbackId}`, w.owner)).body.incident.duplicates.map((d: any) => d.id)).toEqual([restricted.id]);
  });

  it("a case's incidents carry no restricted duplicate of theirs", async () => {
    const res = await get(`cases/${caseId}`);
    expect(res.status).toBe(200);
    expect(res.body.incidents[0].duplicates.map((d: any) => d.id)).toEqual([open.id]);
    expect(nestedIds(res.body).has(restricted.id)).toBe(false);
    expect(nestedIds((await get('cases', w.member, { itemsPerPage: -1 })).body.items).has(restricted.id)).toBe(false);
  });
});
