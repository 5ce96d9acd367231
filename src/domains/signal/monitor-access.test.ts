// A monitor-mode filter records the case it would have joined an instance to: a case the caller
// may not see is not named there, in the instance list or in the answer to an ingestion.
import { describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { signals, unique, useWorld } from '../../../test/worlds/signals.ts';

const w = useWorld();
const s = signals(w);

const hit = (instance: { filter_monitor: { case_id: number | null }[] }) => instance.filter_monitor.map((m) => m.case_id);

describe('monitor hits of a restricted case', () => {
  it('name the case only to those who may see it', async () => {
    const hostType = (
      await call(w.t.app, 'POST', '/default/entity_type', {
        token: w.owner,
        body: { name: unique('Host'), jpath: '$.host', project: { name: 'default' } },
      })
    ).body;
    const filter = await s.filter({ action: 'deduplicate', mode: 'monitor', window: 600 });
    expect(filter.status).toBe(200);
    const variant = unique('watched');
    expect((await s.define({ variant, entity_types: [{ id: hostType.id }], filters: [{ id: filter.body.id }] })).status).toBe(200);

    const first = await s.ingest({ variant, host: 'vault-1' }, { token: w.owner });
    const secret = first.body.case;
    const restricted = await call(w.t.app, 'PUT', `/default/cases/${secret.id}`, {
      token: w.owner,
      body: { title: secret.title, description: 'Restricted now', visibility: 'Restricted' },
    });
    expect(restricted.status).toBe(200);

    // The Member's own ingestion: the filter would have joined the hidden case.
    const second = await s.ingest({ variant, host: 'vault-1' });
    expect(second.status).toBe(200);
    expect(hit(second.body)).toEqual([null]);

    const listed = (id: string, token: string) => s.instances({}, token).then((r) => r.body.items.find((i: { id: string }) => i.id === id));
    expect(hit(await listed(second.body.id, w.member))).toEqual([null]);
    expect(hit(await listed(second.body.id, w.owner))).toEqual([secret.id]);
  });
});

describe('saving a filter whose expression reaches cases', () => {
  it('is for Admins and above: it runs over every case', async () => {
    const title = [{ model: 'Case', field: 'title', op: 'like', value: 'A%' }];
    const byCaseId = [{ model: 'SignalInstance', field: 'case_id', op: '==', value: 1 }];
    for (const expression of [title, byCaseId]) {
      const refused = await s.filter({ mode: 'monitor', action: 'snooze', expression }, w.member);
      expect(refused.status).toBe(403);
      expect((await s.filter({ mode: 'monitor', action: 'snooze', expression }, w.admin)).status).toBe(200);
    }
    const signalOnly = [{ model: 'Signal', field: 'variant', op: '==', value: 'x' }];
    expect((await s.filter({ mode: 'monitor', action: 'snooze', expression: signalOnly }, w.member)).status).toBe(200);
  });
});
