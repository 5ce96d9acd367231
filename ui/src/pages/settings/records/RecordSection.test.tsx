import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { SECTIONS } from '../sections.tsx';
import { bodyOf, initialValues } from './body.ts';
import type { Row } from './declaration.ts';
import { renderAt } from '../../../test/render.tsx';
import { RecordSection } from './RecordSection.tsx';

const priorities = SECTIONS.find((s) => s.key === 'incident-priorities')!;
const tags = SECTIONS.find((s) => s.key === 'tags')!;

const project = { id: 1, name: 'default', display_name: 'Default', default: true };
const high: Row = { id: 7, name: 'High', description: 'Wake people', color: '#ff0000', view_order: 3, default: false, enabled: true, project };

type Call = { method: string; url: string; body: unknown };
let calls: Call[] = [];
let role = 'Owner';

function answer(url: string, method: string): unknown {
  if (url.includes('/auth/myrole')) return role;
  if (url.includes('/auth/me')) return { id: 1, email: 'o@example.com', role, projects: [] };
  if (url.includes('/projects')) return { items: [project], total: 1 };
  if (method === 'POST') return { id: 9 };
  if (/\/incident_priorities\/7$/.test(new URL(url, 'http://x').pathname)) return high;
  return { items: [high], total: 1 };
}

// Mantine's autosizing textarea listens for web fonts, which happy-dom lacks.
if (!document.fonts) Object.defineProperty(document, 'fonts', { value: { addEventListener() {}, removeEventListener() {} } });

beforeEach(() => {
  calls = [];
  role = 'Owner';
  localStorage.setItem('muster.token', 'x.eyJlbWFpbCI6Im9AZXhhbXBsZS5jb20ifQ.x');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      const method = init.method ?? 'GET';
      calls.push({ method, url, body: init.body ? JSON.parse(String(init.body)) : undefined });
      return new Response(JSON.stringify(answer(url, method)), { status: 200, headers: { 'content-type': 'application/json' } });
    }),
  );
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
  localStorage.clear();
});

function show(decl = priorities, search = '') {
  return renderAt(`/default/settings/${decl.key}${search}`, [{ path: '/:organization/settings/*', element: <RecordSection decl={decl} /> }]);
}

const writes = () => calls.filter((c) => c.method !== 'GET');

describe('a declared settings section', () => {
  it('shows its columns and the rows the API pages', async () => {
    show();
    const table = await screen.findByRole('table', { name: 'Incident priorities' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent?.trim());
    expect(headers).toEqual(['Name', 'Description', 'Colour', 'Order', 'Default', 'Enabled', 'Project']);
    expect(await within(table).findByText('Wake people')).toBeTruthy();
    // The header and the project's display name.
    expect(within(table).getAllByText('Default')).toHaveLength(2);
    const list = calls.find((c) => c.url.includes('/incident_priorities?'))!;
    expect(list.url).toContain('itemsPerPage=25');
    expect(list.url).toContain('sortBy%5B%5D=view_order');
  });

  it('refuses a new record without a name, sending nothing', async () => {
    show(priorities, '?new=1');
    const submit = await screen.findByRole('button', { name: 'Create incident priority' });
    fireEvent.click(submit);
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    await waitFor(() => expect(name.getAttribute('aria-invalid')).toBe('true'));
    expect(screen.getByText('Required')).toBeTruthy();
    expect(writes()).toEqual([]);
  });

  it('refuses a name the shape finds too short', async () => {
    show(priorities, '?new=1');
    fireEvent.change(await screen.findByRole('textbox', { name: /^Name/ }), { target: { value: 'P1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create incident priority' }));
    expect(await screen.findByText(/fewer than 3 characters/)).toBeTruthy();
    expect(writes()).toEqual([]);
  });

  it('sends a valid record with its project', async () => {
    show(priorities, '?new=1');
    fireEvent.change(await screen.findByRole('textbox', { name: /^Name/ }), { target: { value: 'Urgent' } });
    await waitFor(() => expect(calls.some((c) => c.url.includes('/projects'))).toBe(true));
    fireEvent.click(screen.getByRole('button', { name: 'Create incident priority' }));
    await waitFor(() => expect(writes()).toHaveLength(1));
    const [post] = writes();
    expect(post.method).toBe('POST');
    expect(post.url).toBe('/api/v1/default/incident_priorities');
    expect(post.body).toEqual({ name: 'Urgent', default: false, enabled: true, page_commander: false, project: { id: 1 } });
  });

  it('shows no write controls to a Member', async () => {
    role = 'Member';
    show();
    await screen.findByText('Wake people');
    await screen.findByText('Only Admins and Owners change these.');
    expect(screen.queryByRole('button', { name: /New incident priority/ })).toBeNull();
    expect(screen.queryByRole('link', { name: 'Edit High' })).toBeNull();
  });
});

describe('bodies of a declared section', () => {
  it('clears a nullable field on an edit with null and keeps others out', () => {
    const values = initialValues(priorities, 'update', high);
    expect(values.description).toBe('Wake people');
    const body = bodyOf(priorities, 'update', { ...values, description: '' }, 'default', high);
    expect(body.description).toBeNull();
    expect(body).not.toHaveProperty('project');
  });

  it('sends a picked record as {id} and a new record in its project', () => {
    const values = initialValues(tags, 'create', undefined, 4);
    expect(values.project).toEqual({ id: 4 });
    expect(values.discoverable).toBe(true);
    const body = bodyOf(tags, 'create', { ...values, name: 'eu-west-1', tag_type: { id: 2 } }, 'default');
    expect(body).toEqual({ name: 'eu-west-1', tag_type: { id: 2 }, discoverable: true, project: { id: 4 } });
  });
});
