// The web UI's search filters page (reference/dispatch-ui.md): each filter with the individuals,
// teams, services and notifications whose `filters` name it, as current Dispatch reads them.
import { describe, expect, it } from 'vitest';
import { call } from '../helpers.ts';
import { useWorld } from '../worlds/world.ts';

const w = useWorld();
const project = { name: 'default' };
const post = async (path: string, body: Record<string, unknown>) => {
  const res = await call(w.t.app, 'POST', `/default/${path}`, { token: w.owner, body: { project, ...body } });
  expect({ path, status: res.status }).toEqual({ path, status: 200 });
  return res.body;
};

describe('the search filters page', () => {
  it('reads the records each filter routes, and nothing for a filter that routes none', async () => {
    const routing = await post('search/filters', { name: 'Routing', expression: [{ model: 'Incident', field: 'title', op: 'like', value: '%db%' }] });
    const idle = await post('search/filters', { name: 'Idle', expression: [] });
    const filters = [{ id: routing.id }];
    const alice = await post('individuals', { email: 'alice@corp.example', name: 'Alice', filters });
    await post('individuals', { email: 'bob@corp.example', name: 'Bob' });
    const dba = await post('teams', { email: 'dba@corp.example', name: 'DBAs', filters });
    const pager = await post('services', { name: 'Pager', external_id: 'PD-1', filters });
    const channel = await post('notifications', { name: 'Security channel', type: 'conversation', target: '#security', filters });

    const res = await call(w.t.app, 'GET', '/default/search/filters', {
      token: w.member,
      query: { page: 1, itemsPerPage: 10, 'sortBy[]': 'name', 'descending[]': false },
    });
    expect(res.status).toBe(200);
    const byName = Object.fromEntries(res.body.items.map((f: any) => [f.name, f]));
    expect(byName.Routing).toMatchObject({
      individuals: [{ id: alice.id, name: 'Alice', email: 'alice@corp.example' }],
      teams: [{ id: dba.id, name: 'DBAs' }],
      services: [{ id: pager.id, name: 'Pager' }],
      notifications: [{ id: channel.id, name: 'Security channel' }],
    });
    expect(byName.Idle).toMatchObject({ id: idle.id, individuals: [], teams: [], services: [], notifications: [] });

    // Create and update answer the same read; the filters nested in a contact stay as 0.1.0 reads them.
    const renamed = await call(w.t.app, 'PUT', `/default/search/filters/${routing.id}`, { token: w.owner, body: { name: 'Routing', expression: [] } });
    expect(renamed.body.teams).toEqual([{ id: dba.id, name: 'DBAs' }]);
    const nested = (await call(w.t.app, 'GET', `/default/individuals/${alice.id}`, { token: w.member })).body.filters;
    expect(nested).toEqual([expect.objectContaining({ id: routing.id, name: 'Routing' })]);
    expect(nested[0]).not.toHaveProperty('individuals');
  });
});
