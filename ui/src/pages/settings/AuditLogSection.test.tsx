import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test/render.tsx';
import { AuditLogSection, auditQuery, type AuditEntry } from './AuditLogSection.tsx';
import SettingsPage from './SettingsPage.tsx';

const entry: AuditEntry = {
  id: 41,
  occurred_at: '2026-11-27T10:15:00.000Z',
  action: 'plugin_instance.updated',
  actor_email: 'owner@example.com',
  actor_token_id: null,
  address: '203.0.113.9',
  target_type: 'plugin_instance',
  target_id: '7',
  target_label: 'muster-email',
  before: { enabled: false, configuration: { host: 'old.example.org', password: '**********' } },
  after: { enabled: false, configuration: { host: 'smtp.example.org', password: '**********' } },
  details: { secrets_changed: ['password'] },
};

type Call = { url: string; headers: Record<string, string> };
let calls: Call[] = [];
let role = 'Owner';
const downloads: string[] = [];

function answer(url: string): Response {
  if (url.includes('/auth/myrole')) return Response.json(role);
  if (url.includes('/auth/me')) return Response.json({ id: 1, email: 'owner@example.com', role, projects: [] });
  if (url.includes('/audit-log/export')) {
    return new Response('id,occurred_at,action\r\n41,2026-11-27T10:15:00.000Z,plugin_instance.updated\r\n', {
      status: 200,
      headers: { 'content-type': 'text/csv', 'content-disposition': 'attachment; filename="audit-log-default-2026-11-27.csv"' },
    });
  }
  if (url.includes('/audit-log')) return Response.json({ items: [entry], total: 1, page: 1, itemsPerPage: 25 });
  return Response.json({ items: [], total: 0 });
}

beforeEach(() => {
  calls = [];
  downloads.length = 0;
  role = 'Owner';
  localStorage.setItem('muster.token', 'x.eyJlbWFpbCI6Im9AZXhhbXBsZS5jb20ifQ.x');
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init: RequestInit = {}) => {
      calls.push({ url, headers: (init.headers ?? {}) as Record<string, string> });
      return answer(url);
    }),
  );
  URL.createObjectURL = vi.fn(() => 'blob:audit');
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    downloads.push(this.download);
  });
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
  localStorage.clear();
});

const show = (search = '') => renderAt(`/default/settings/audit-log${search}`, [{ path: '/:organization/settings/audit-log', element: <AuditLogSection /> }]);

const logCalls = () => calls.filter((c) => new URL(c.url, 'http://x').pathname === '/api/v1/default/audit-log');

describe('the audit log section', () => {
  it('shows when, who, action, target and address, newest first', async () => {
    show();
    const table = await screen.findByRole('table', { name: 'Audit log' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent?.trim());
    expect(headers).toEqual(['When ▼', 'Who', 'Action', 'Target', 'Address']);
    await waitFor(() => expect(logCalls().length).toBeGreaterThan(0));
    expect(await within(table).findByText('owner@example.com')).toBeTruthy();
    expect(within(table).getByText('2026-11-27 10:15 UTC')).toBeTruthy();
    expect(within(table).getByText('plugin_instance #7 muster-email')).toBeTruthy();
    expect(within(table).getByText('203.0.113.9')).toBeTruthy();
    const url = logCalls()[0].url;
    expect(url).toContain('sortBy%5B%5D=occurred_at');
    expect(url).toContain('descending%5B%5D=true');
  });

  it('opens a row to show the record before and after the change', async () => {
    show();
    const open = await screen.findByRole('button', { name: 'Show before and after of plugin_instance.updated' });
    expect(open.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByText(/old\.example\.org/)).toBeNull();
    fireEvent.click(open);
    const detail = await screen.findByLabelText('Entry 41');
    expect(within(detail).getByText(/old\.example\.org/)).toBeTruthy();
    expect(within(detail).getByText(/smtp\.example\.org/)).toBeTruthy();
    expect(within(detail).getByText(/secrets_changed/)).toBeTruthy();
    const close = screen.getByRole('button', { name: 'Hide before and after of plugin_instance.updated' });
    expect(close.getAttribute('aria-expanded')).toBe('true');
    fireEvent.click(close);
    await waitFor(() => expect(screen.queryByLabelText('Entry 41')).toBeNull());
  });

  it('sends the filters to the API, dates as whole UTC days', async () => {
    show('?action=plugin_instance.*&actor=owner@example.com&since=2026-11-01&until=2026-11-27');
    await waitFor(() => expect(logCalls().length).toBeGreaterThan(0));
    const url = new URL(logCalls()[0].url, 'http://x');
    expect(url.searchParams.get('action')).toBe('plugin_instance.*');
    expect(url.searchParams.get('actor')).toBe('owner@example.com');
    expect(url.searchParams.get('since')).toBe('2026-11-01T00:00:00.000Z');
    expect(url.searchParams.get('until')).toBe('2026-11-28T00:00:00.000Z');
    fireEvent.change(screen.getByRole('textbox', { name: 'Action' }), { target: { value: 'project.deleted' } });
    await waitFor(() => expect(new URL(logCalls().at(-1)!.url, 'http://x').searchParams.get('action')).toBe('project.deleted'));
    expect(auditQuery({ action: ' ', actor: '', since: 'soon', until: '' })).toEqual({
      action: undefined,
      actor: undefined,
      since: undefined,
      until: undefined,
    });
  });

  it('downloads an export through the API with the session token and the same filters', async () => {
    show('?action=project.*');
    fireEvent.click(await screen.findByRole('button', { name: 'Export CSV' }));
    await waitFor(() => expect(downloads).toEqual(['audit-log-default-2026-11-27.csv']));
    const exported = calls.find((c) => c.url.includes('/audit-log/export'))!;
    const url = new URL(exported.url, 'http://x');
    expect(url.searchParams.get('format')).toBe('csv');
    expect(url.searchParams.get('action')).toBe('project.*');
    expect(exported.headers.authorization).toBe('Bearer x.eyJlbWFpbCI6Im9AZXhhbXBsZS5jb20ifQ.x');
    fireEvent.click(screen.getByRole('button', { name: 'Export JSON lines' }));
    await waitFor(() => expect(calls.filter((c) => c.url.includes('format=jsonl'))).toHaveLength(1));
  });

  it('is for Owners: others are told so and nothing is asked of the log', async () => {
    role = 'Admin';
    show();
    expect(await screen.findByText('Only Owners of the organization read its audit log.')).toBeTruthy();
    expect(logCalls()).toEqual([]);
  });

  it('is listed in the settings for Owners only', async () => {
    const page = () => renderAt('/default/settings/users', [{ path: '/:organization/settings/*', element: <SettingsPage /> }]);
    page();
    expect(await screen.findByRole('link', { name: 'Audit log' })).toBeTruthy();
    cleanup();
    role = 'Member';
    page();
    await screen.findByRole('link', { name: 'Users and roles' });
    await waitFor(() => expect(calls.some((c) => c.url.includes('/auth/myrole'))).toBe(true));
    await new Promise((r) => setTimeout(r, 50));
    expect(screen.queryByRole('link', { name: 'Audit log' })).toBeNull();
  });
});
