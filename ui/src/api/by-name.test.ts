import { afterEach, describe, expect, it, vi } from 'vitest';
import { CASE, INCIDENT, idInPath, nameFilter, resolveRecordId } from './by-name.ts';

afterEach(() => vi.unstubAllGlobals());

const answer = (body: unknown, status = 200) => vi.fn(async () => new Response(JSON.stringify(body), { status }));

describe('name → id', () => {
  it('takes a number as the id, without asking the API', async () => {
    const fetch = answer({});
    vi.stubGlobal('fetch', fetch);
    expect(idInPath('42')).toBe(42);
    expect(idInPath('dispatch-default-default-42')).toBeNull();
    await expect(resolveRecordId('default', INCIDENT, '42')).resolves.toBe(42);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('finds a name through the list filter name == X', async () => {
    const fetch = answer({ items: [{ id: 7 }], total: 1 });
    vi.stubGlobal('fetch', fetch);
    await expect(resolveRecordId('acme', INCIDENT, 'acme-inc-7')).resolves.toBe(7);
    const url = new URL(String((fetch.mock.calls[0] as unknown[])[0]), 'http://x');
    expect(url.pathname).toBe('/api/v1/acme/incidents');
    expect(JSON.parse(url.searchParams.get('filter')!)).toEqual(nameFilter(INCIDENT, 'acme-inc-7'));
    expect(nameFilter(INCIDENT, 'n')).toEqual({ and: [{ or: [{ model: 'Incident', field: 'name', op: '==', value: 'n' }] }] });
  });

  it('answers 404 in words when no incident has that name', async () => {
    vi.stubGlobal('fetch', answer({ items: [], total: 0 }));
    await expect(resolveRecordId('default', INCIDENT, 'nope')).rejects.toMatchObject({
      status: 404,
      message: 'There is no incident called nope that you can see.',
    });
  });
});

describe('cases by name', () => {
  it('asks the case list, and says which kind it did not find', async () => {
    const fetch = answer({ items: [], total: 0 });
    vi.stubGlobal('fetch', fetch);
    await expect(resolveRecordId('default', CASE, 'muster-default-case-9')).rejects.toMatchObject({
      status: 404,
      message: 'There is no case called muster-default-case-9 that you can see.',
    });
    const url = new URL(String((fetch.mock.calls[0] as unknown[])[0]), 'http://x');
    expect(url.pathname).toBe('/api/v1/default/cases');
    expect(JSON.parse(url.searchParams.get('filter')!)).toEqual({
      and: [{ or: [{ model: 'Case', field: 'name', op: '==', value: 'muster-default-case-9' }] }],
    });
  });
});
