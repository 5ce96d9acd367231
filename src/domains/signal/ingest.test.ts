import { beforeAll, describe, expect, it } from 'vitest';
import { call } from '../../../test/helpers.ts';
import { later, useWorld, signals } from '../../../test/worlds/signals.ts';

const w = useWorld();
const s = signals(w);
let hostType: { id: number; name: string };
let userType: { id: number; name: string };
beforeAll(async () => {
  hostType = await s.entityType({ regular_expression: '\\bhost-[0-9]+\\b' });
  userType = await s.entityType({ jpath: '$.actor.email', regular_expression: '^[^@]+' });
});

const raw = (extra: Record<string, unknown> = {}) => ({ host: 'host-1 is down', actor: { email: 'ann@example.com' }, note: 'seen on host-1', ...extra });

describe('ingestion', () => {
  it('finds the definition by variant, extracts entities, fingerprints and opens a case', async () => {
    const def = await s.define({
      name: 'Disk full',
      description: 'A disk filled up',
      variant: 'disk-full',
      entity_types: [{ id: hostType.id }, { name: userType.name }],
    });
    expect(def.status).toBe(200);
    const res = await s.ingest(raw({ variant: 'disk-full' }));
    expect(res.status).toBe(200);
    const inst = res.body;
    expect(inst.id).toMatch(/^[0-9a-f-]{36}$/);
    expect(inst.signal).toMatchObject({ id: def.body.id, name: 'Disk full' });
    expect(inst.fingerprint).toMatch(/^[0-9a-f]{64}$/);
    expect(inst.filter_action ?? null).toBeNull();
    expect(inst.entities.map((e: any) => [e.entity_type.name, e.value]).sort()).toEqual(
      [
        [hostType.name, 'host-1'],
        [userType.name, 'ann'],
      ].sort(),
    );
    expect(inst.case).toMatchObject({ title: 'Disk full', description: 'A disk filled up', status: 'New' });
    expect(inst.raw).toEqual(raw({ variant: 'disk-full' }));
    // Another instance with the same entities has the same fingerprint, and reuses the entities.
    const again = await s.ingest(raw({ variant: 'disk-full', at: 'later' }));
    expect(again.body.fingerprint).toBe(inst.fingerprint);
    expect(again.body.entities.map((e: any) => e.id).sort()).toEqual(inst.entities.map((e: any) => e.id).sort());
    expect(again.body.case.id).not.toBe(inst.case.id);
    const other = await s.ingest(raw({ variant: 'disk-full', host: 'host-2 too', note: '' }));
    expect(other.body.fingerprint).not.toBe(inst.fingerprint);
  });

  it('finds the definition by external id when there is no variant, and answers 404 and 400', async () => {
    const def = await s.define({ external_id: 'ext-by-id' });
    const res = await s.ingest({ id: 'ext-by-id', what: 'x' });
    expect(res.status).toBe(200);
    expect(res.body.signal.id).toBe(def.body.id);
    const missing = await s.ingest({ id: 'nobody', variant: 'none-such' });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ detail: [{ msg: 'No signal definition found. Id: nobody Variant: none-such' }] });
    const off = await s.define({ external_id: 'ext-off', enabled: false, name: 'Switched off' });
    const disabled = await s.ingest({ id: 'ext-off' });
    expect(disabled.status).toBe(400);
    expect(disabled.body).toEqual({ detail: [{ msg: 'Signal definition not enabled. SignalName: Switched off' }] });
    expect(off.body.enabled).toBe(false);
    const noProject = await s.ingest({ id: 'ext-by-id' }, { project: { name: 'Nope' } });
    expect(noProject.status).toBe(422);
  });

  it('does not reach a definition of another organization', async () => {
    const theirs = await call(w.t.app, 'POST', '/elsewhere/signals', {
      token: w.owner,
      body: { name: 'Theirs', owner: 'x', external_id: 'their-ext', enabled: true, project: { id: w.elsewhere.projectId } },
    });
    expect(theirs.status).toBe(200);
    const res = await s.ingest({ id: 'their-ext' });
    expect(res.status).toBe(404);
    const byId = await s.ingest({ id: 'their-ext' }, { project: { id: w.elsewhere.projectId } });
    expect(byId.status).toBe(422);
  });

  it('does not open a case when create_case is false', async () => {
    await s.define({ variant: 'quiet', create_case: false });
    const res = await s.ingest({ variant: 'quiet' });
    expect(res.status).toBe(200);
    expect(res.body.case ?? null).toBeNull();
  });

  it('opens a case that can be edited when the signal has no description', async () => {
    await s.define({ variant: 'undescribed', name: 'Undescribed', description: null });
    const res = await s.ingest({ variant: 'undescribed' });
    const opened = res.body.case;
    expect(opened.description).toBe('Opened by the signal Undescribed.');
    const full = await call(w.t.app, 'GET', `/default/cases/${opened.id}`, { token: w.owner });
    const saved = await call(w.t.app, 'PUT', `/default/cases/${opened.id}`, { token: w.owner, body: { ...full.body, status: 'Triage' } });
    expect(saved.status).toBe(200);
    expect(saved.body.status).toBe('Triage');
  });

  it('lists instances with filters on entities', async () => {
    await s.define({ variant: 'listed', entity_types: [{ id: hostType.id }], create_case: false });
    await s.ingest({ variant: 'listed', h: 'host-77' });
    const list = await s.instances({ filter: JSON.stringify([{ model: 'Entity', field: 'value', op: '==', value: 'host-77' }]) });
    expect(list.status).toBe(200);
    expect(list.body.total).toBe(1);
    expect(list.body.items[0].entities[0].value).toBe('host-77');
  });

  it('uses created_at from the body as the instance time', async () => {
    await s.define({ variant: 'timed', create_case: false });
    const res = await s.ingest({ variant: 'timed' }, { created_at: '2024-01-01T00:00:00Z' });
    expect(res.body.created_at).toBe('2024-01-01T00:00:00.000Z');
    expect(later('2024-01-01T00:00:00Z', 1)).toBe('2024-01-01T00:00:01.000Z');
  });
});
