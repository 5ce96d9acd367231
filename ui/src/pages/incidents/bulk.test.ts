import { describe, expect, it } from 'vitest';
import { ApiError } from '../../api/client.ts';
import { eachIncident, withChange } from './bulk.ts';

describe('bulk changes', () => {
  it('sends the read record back with the one field changed', () => {
    const read = { id: 4, title: 'T', status: 'Active', incident_priority: { id: 1, name: 'Low' }, tags: [{ id: 2 }] };
    expect(withChange(read, { incident_priority: { name: 'High' } })).toEqual({ ...read, incident_priority: { name: 'High' } });
    expect(withChange(read, { status: 'Closed' })).toEqual({ ...read, status: 'Closed' });
    expect(withChange(read, { commander: { individual: { email: 'c@x.example' } } })).toMatchObject({ commander: { individual: { email: 'c@x.example' } } });
  });

  it('goes on after a failure and names each failed incident with the API detail', async () => {
    const done: number[] = [];
    const failures = await eachIncident(
      [1, 2, 3],
      (id) => `inc-${id}`,
      async (id) => {
        if (id === 2) throw new ApiError(403, 'You may not change this incident.');
      },
      (n) => done.push(n),
    );
    expect(failures).toEqual([{ id: 2, name: 'inc-2', detail: 'You may not change this incident.' }]);
    expect(done).toEqual([1, 2, 3]);
  });
});
