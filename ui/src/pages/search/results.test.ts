import { describe, expect, it } from 'vitest';
import { countsOf, groupResults, queryProblem, type SearchAnswer, typesFromParams } from './results.ts';

const empty = {
  documents: [],
  incidents: [],
  tasks: [],
  tags: [],
  terms: [],
  definitions: [],
  sources: [],
  queries: [],
  teams: [],
  individuals: [],
  services: [],
  cases: [],
};

const answer: SearchAnswer = {
  query: 'kraken reef',
  results: {
    ...empty,
    incidents: [
      { id: 2, name: 'dispatch-default-default-2', title: 'Kraken reef alarm', status: 'Closed', reported_at: '2026-11-20T14:02:00Z' },
      { id: 1, name: 'dispatch-default-default-1', title: 'Harbour outage' },
    ],
    cases: [{ id: 5, name: 'dispatch-default-default-5', title: 'Kraken reef case' }],
    tasks: [{ id: 9, description: 'Fence the kraken reef', incident: { id: 1, name: 'dispatch-default-default-1', title: 'Harbour outage' } }],
    tags: [{ id: 3, name: 'Seabed', description: 'Where kraken and reef meet' }],
    terms: [{ id: 4, text: 'kraken reef' }],
    individuals: [{ id: 6, name: 'Ann Diver', email: 'ann@example.com' }],
  },
};

describe('global search results', () => {
  it('groups hits by kind in a fixed order, leaving out kinds without a hit, each hit linked to its page', () => {
    const groups = groupResults('default', answer, typesFromParams(new URLSearchParams()));
    expect(groups.map((g) => [g.kind.label, g.hits.length])).toEqual([
      ['Incidents', 2],
      ['Cases', 1],
      ['Tasks', 1],
      ['Tags', 1],
      ['Terms', 1],
      ['People', 1],
    ]);
    expect(groups[0].hits[0]).toEqual({
      id: 'incidents:2',
      title: 'Kraken reef alarm',
      detail: 'dispatch-default-default-2',
      href: '/default/incidents/dispatch-default-default-2',
      status: 'Closed',
      reportedAt: '2026-11-20T14:02:00Z',
    });
    expect(groups[1].hits[0].href).toBe('/default/cases/dispatch-default-default-5');
    expect(groups[2].hits[0]).toEqual({
      id: 'tasks:9',
      title: 'Fence the kraken reef',
      detail: 'Task of dispatch-default-default-1: Harbour outage',
      href: '/default/incidents/dispatch-default-default-1',
    });
    expect(groups[3].hits[0]).toEqual({ id: 'tags:3', title: 'Seabed', detail: 'Where kraken and reef meet', href: '/default/settings/tags' });
    expect(groups[4].hits[0].title).toBe('kraken reef');
    expect(groups[5].hits[0]).toEqual({ id: 'individuals:6', title: 'Ann Diver', detail: 'ann@example.com', href: '/default/settings/individuals' });
  });

  it('shows only the kinds the URL turns on, and counts every kind', () => {
    const types = typesFromParams(new URLSearchParams('type=Case&type=Incident&type=Alert'));
    expect(types).toEqual(['Incident', 'Case']);
    expect(groupResults('default', answer, types).map((g) => g.kind.key)).toEqual(['incidents', 'cases']);
    expect(countsOf(answer)).toMatchObject({ Incident: 2, Case: 1, Task: 1, Document: 0 });
    expect(groupResults('default', { query: 'x', results: empty }, types)).toEqual([]);
    expect(groupResults('default', undefined, types)).toEqual([]);
  });

  it('leaves a hit without a page as plain text', () => {
    const [group] = groupResults('o', { query: 'x', results: { ...empty, incidents: [{ id: 1, title: 'No name yet' }] } }, ['Incident']);
    expect(group.hits[0]).toEqual({ id: 'incidents:1', title: 'No name yet', detail: undefined, href: undefined });
  });

  it('knows which queries the API cannot take', () => {
    expect(queryProblem('')).toBe('empty');
    expect(queryProblem('  ')).toBe('empty');
    expect(queryProblem('kraken reef')).toBeNull();
    expect(queryProblem('café')).toBe('ascii');
  });
});
