import { afterEach, describe, expect, it, vi } from 'vitest';
import { idInPath, nameFilter, resolveIncidentId } from './resolve.ts';

afterEach(() => vi.unstubAllGlobals());

const answer = (body: unknown, status = 200) => vi.fn(async () => new Response(JSON.stringify(body), { status }));

describe('name → id', () => {
  it('takes a number as the id, without asking the API', async () => {
    const fetch = answer({});
    vi.stubGlobal('fetch', fetch);
    expect(idInPath('42')).toBe(42);
    expect(idInPath('dispatch-default-default-42')).toBeNull();
    await expect(resolveIncidentId('default', '42')).resolves.toBe(42);
    expect(fetch).not.toHaveBeenCalled();
  });

  it('finds a name through the list filter name == X', async () => {
    const fetch = answer({ items: [{ id: 7 }], total: 1 });
    vi.stubGlobal('fetch', fetch);
    await expect(resolveIncidentId('acme', 'acme-inc-7')).resolves.toBe(7);
    const url = new URL(String((fetch.mock.calls[0] as unknown[])[0]), 'http://x');
    expect(url.pathname).toBe('/api/v1/acme/incidents');
    expect(JSON.parse(url.searchParams.get('filter')!)).toEqual(nameFilter('acme-inc-7'));
    expect(nameFilter('n')).toEqual({ and: [{ or: [{ model: 'Incident', field: 'name', op: '==', value: 'n' }] }] });
  });

  it('answers 404 in words when no incident has that name', async () => {
    vi.stubGlobal('fetch', answer({ items: [], total: 0 }));
    await expect(resolveIncidentId('default', 'nope')).rejects.toMatchObject({ status: 404, message: 'There is no incident called nope that you can see.' });
  });
});
