// Writes conditional on If-Match: a PUT of an incident or a case naming a tag the record no longer
// reads as answers 412 in the contract's error shape and changes nothing; the current tag, `*`, or
// no If-Match at all (Dispatch's clients) writes as before.
import { describe, expect, it } from 'vitest';
import { call } from '../../test/helpers.ts';
import { useWorld } from '../../test/worlds/world.ts';

const w = useWorld();

const kinds = [
  { kind: 'incident', path: '/default/incidents', body: { title: 'Database down', description: 'Writes fail.' } },
  { kind: 'case', path: '/default/cases', body: { title: 'Suspicious login', description: 'A login from a new country.' } },
];

describe.each(kinds)('PUT of an $kind with If-Match', ({ path, body }) => {
  const create = async () => (await call(w.t.app, 'POST', path, { token: w.owner, body })).body;
  const get = (id: number) => call(w.t.app, 'GET', `${path}/${id}`, { token: w.owner });
  const put = (id: number, record: unknown, headers: Record<string, string> = {}) =>
    call(w.t.app, 'PUT', `${path}/${id}`, { token: w.owner, body: record, headers });

  it('writes with the current tag and answers the new one, which the next GET confirms', async () => {
    const { id } = await create();
    const read = await get(id);
    const res = await put(id, { ...read.body, title: 'Renamed' }, { 'if-match': read.headers.etag as string });
    expect(res.status).toBe(200);
    expect(res.body.title).toBe('Renamed');
    const after = await get(id);
    expect(after.body.title).toBe('Renamed');
    expect(res.headers.etag).toBe(after.headers.etag);
    // The answer's tag holds for the next save without reading again.
    const next = await put(id, { ...res.body, title: 'Renamed again' }, { 'if-match': res.headers.etag as string });
    expect(next.status).toBe(200);
  });

  it('answers 412 with a stale tag, in the contract error shape, and keeps the other change', async () => {
    const { id } = await create();
    const seen = await get(id);
    const theirs = await put(id, { ...seen.body, title: 'Their title' });
    expect(theirs.status).toBe(200);
    const mine = await put(id, { ...seen.body, description: 'My description' }, { 'if-match': seen.headers.etag as string });
    expect(mine.status).toBe(412);
    expect(mine.body).toEqual({ detail: [{ msg: expect.stringContaining('changed by someone else') }] });
    const now = (await get(id)).body;
    expect(now.title).toBe('Their title');
    expect(now.description).toBe(body.description);
  });

  it('writes without If-Match or with `*` as the contract does', async () => {
    const { id } = await create();
    const seen = await get(id);
    expect((await put(id, { ...seen.body, title: 'First' })).status).toBe(200);
    const blind = await put(id, { ...seen.body, title: 'Second' });
    expect(blind.status).toBe(200);
    expect(blind.body.title).toBe('Second');
    expect((await put(id, { ...blind.body, title: 'Third' }, { 'if-match': '*' })).status).toBe(200);
  });

  it('lets one of two saves made from the same tag through, and answers the other 412', async () => {
    const { id } = await create();
    const seen = await get(id);
    const tag = seen.headers.etag as string;
    // Fired together: the tag is checked with the record locked, so the second sees the first's write.
    const answers = await Promise.all(['Mine', 'Theirs'].map((title) => put(id, { ...seen.body, title }, { 'if-match': tag })));
    expect(answers.map((r) => r.status).sort()).toEqual([200, 412]);
    const won = answers.find((r) => r.status === 200)!;
    expect((await get(id)).body.title).toBe(won.body.title);
  });

  it('checks access before the tag: a missing record is 404 whatever If-Match says', async () => {
    const res = await put(999999, body, { 'if-match': 'W/"nothing"' });
    expect(res.status).toBe(404);
  });
});
