import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test/render.tsx';
import SearchPage from './SearchPage.tsx';

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
const requests: URL[] = [];

beforeEach(() => {
  requests.length = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      requests.push(url);
      const q = url.searchParams.get('q');
      const results =
        q === 'kraken'
          ? {
              ...empty,
              incidents: [
                { id: 1, name: 'INC-1', title: 'Kraken alarm' },
                { id: 2, name: 'INC-2', title: 'Kraken sighting' },
              ],
              cases: [{ id: 3, name: 'CASE-3', title: 'Kraken case' }],
            }
          : empty;
      return new Response(JSON.stringify({ query: q, results }), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

function show(path: string) {
  return renderAt(path, [
    { path: '/:organization/search', element: <SearchPage /> },
    { path: '/:organization/incidents/:name', element: <p>incident page</p> },
  ]).router;
}

describe('the search page', () => {
  it('asks for every kind, groups the hits by kind with counts and links', async () => {
    show('/default/search?q=kraken');
    const incidents = await screen.findByRole('region', { name: 'Incidents' });
    expect(requests[0].pathname).toBe('/api/v1/default/search');
    expect(requests[0].searchParams.getAll('type[]')).toContain('IndividualContact');
    expect(incidents.querySelectorAll('a')[0].getAttribute('href')).toBe('/default/incidents/INC-1');
    expect(screen.getByRole('region', { name: 'Cases' }).querySelector('a')?.getAttribute('href')).toBe('/default/cases/CASE-3');
    expect(screen.getByLabelText('2 hits')).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Incidents (2)' })).toBeTruthy();
    expect(screen.getByRole('checkbox', { name: 'Tags (0)' })).toBeTruthy();
    expect(screen.queryByRole('region', { name: 'Tags' })).toBeNull();
  });

  it('keeps the kinds in the URL and asks again when they change', async () => {
    const router = show('/default/search?q=kraken');
    fireEvent.click(await screen.findByRole('checkbox', { name: 'Cases (1)' }));
    await waitFor(() => expect(router.state.location.search).not.toContain('type=Case'));
    expect(new URLSearchParams(router.state.location.search).getAll('type')).toContain('Incident');
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Cases' })).toBeNull());
    expect(requests.at(-1)?.searchParams.getAll('type[]')).not.toContain('Case');
  });

  it('moves through the hits with j and k and opens one with Enter', async () => {
    const router = show('/default/search?q=kraken');
    await screen.findByRole('region', { name: 'Incidents' });
    fireEvent.keyDown(window, { key: 'j' });
    fireEvent.keyDown(window, { key: 'j' });
    fireEvent.keyDown(window, { key: 'k' });
    expect(document.activeElement?.textContent).toBe('Kraken alarm');
    fireEvent.keyDown(window, { key: 'j' });
    expect(document.activeElement?.textContent).toBe('Kraken sighting');
    // Enter on the page (not on the focused link, which the browser follows itself).
    (document.activeElement as HTMLElement).blur();
    fireEvent.keyDown(window, { key: 'Enter' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/default/incidents/INC-2'));
  });

  it('gives hints when nothing matches, when there is no query, and for words the API cannot take', async () => {
    show('/default/search?q=zeppelin');
    expect(await screen.findByRole('heading', { name: 'Nothing matches “zeppelin”' })).toBeTruthy();
    cleanup();
    show('/default/search');
    expect(screen.getByRole('heading', { name: 'Search every incident, case and record' })).toBeTruthy();
    cleanup();
    const before = requests.length;
    show('/default/search?q=caf%C3%A9');
    expect(screen.getByRole('heading', { name: 'These words cannot be searched' })).toBeTruthy();
    expect(requests.length).toBe(before);
  });
});
