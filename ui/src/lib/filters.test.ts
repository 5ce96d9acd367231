import { describe, expect, it } from 'vitest';
import { type FilterDef, paramsWithValues, toFilterJson, valuesFromFilterJson, valuesFromParams, zoneless } from './filters.ts';

const defs: FilterDef[] = [
  { key: 'status', label: 'Status', field: 'status', options: ['Active', 'Stable', 'Closed'] },
  { key: 'priority', label: 'Priority', model: 'IncidentPriority', field: 'name' },
  { key: 'project', label: 'Project', model: 'Project', field: 'id' },
  { key: 'title', label: 'Title', field: 'title', kind: 'ilike' },
  { key: 'from', label: 'Reported after', field: 'reported_at', kind: 'after' },
  { key: 'to', label: 'Reported before', field: 'reported_at', kind: 'before' },
  { key: 'mine', label: 'Mine', model: 'IndividualContact', field: 'email', kind: 'me' },
];

describe('table filters to the list engine', () => {
  it('writes one OR group per filter, in the order of the definitions', () => {
    expect(toFilterJson(defs, { priority: ['High'], status: ['Active', 'Stable'], project: ['3'] })).toEqual({
      and: [
        {
          or: [
            { field: 'status', op: '==', value: 'Active' },
            { field: 'status', op: '==', value: 'Stable' },
          ],
        },
        { or: [{ model: 'IncidentPriority', field: 'name', op: '==', value: 'High' }] },
        { or: [{ model: 'Project', field: 'id', op: '==', value: 3 }] },
      ],
    });
  });

  it('writes nothing when nothing is chosen', () => {
    expect(toFilterJson(defs, {})).toBeNull();
    expect(toFilterJson(defs, { status: [''] })).toBeNull();
  });

  it('matches text anywhere, dates without zone, and "mine" as the signed-in email', () => {
    expect(toFilterJson(defs, { title: ['db'], from: ['2026-10-01'], to: ['2026-10-31'], mine: ['1'] }, 'me@example.com')).toEqual({
      and: [
        { or: [{ field: 'title', op: 'ilike', value: '%db%' }] },
        { or: [{ field: 'reported_at', op: '>=', value: '2026-10-01T00:00:00.000' }] },
        { or: [{ field: 'reported_at', op: '<=', value: '2026-10-31T23:59:59.999' }] },
        { or: [{ model: 'IndividualContact', field: 'email', op: '==', value: 'me@example.com' }] },
      ],
    });
    expect(toFilterJson(defs, { mine: ['1'] })).toBeNull();
    expect(zoneless('2026-10-01T12:30:00Z', false)).toBe('2026-10-01T12:30:00.000');
  });

  it('reads the values back from the URL and from a saved filter', () => {
    const params = new URLSearchParams('status=Active&status=Closed&priority=High&page=3&sort=title');
    const values = valuesFromParams(defs, params);
    expect(values).toEqual({ status: ['Active', 'Closed'], priority: ['High'] });
    const next = paramsWithValues(defs, params, { status: ['Stable'] });
    expect(next.toString()).toBe('sort=title&status=Stable');
    const saved = toFilterJson(defs, { ...values, title: ['db'], mine: ['1'] }, 'me@example.com');
    expect(valuesFromFilterJson(defs, saved, 'me@example.com')).toEqual({ ...values, title: ['db'], mine: ['1'] });
  });

  it('declines a saved filter of another shape', () => {
    expect(valuesFromFilterJson(defs, [{ field: 'status', op: '==', value: 'Active' }])).toBeNull();
    expect(valuesFromFilterJson(defs, { and: [{ or: [{ field: 'nope', op: '==', value: 1 }] }] })).toBeNull();
  });
});
