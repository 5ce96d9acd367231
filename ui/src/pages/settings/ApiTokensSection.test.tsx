import { cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test/render.tsx';
import { ApiTokensSection } from './ApiTokensSection.tsx';
import { ServiceAccountsSection } from './ServiceAccountsSection.tsx';
import { expiryAfter, rolesUpTo } from './tokens.tsx';

type Call = { method: string; url: string; body: Record<string, string> | undefined };
let calls: Call[] = [];
let role = 'Admin';

const laptop = {
  id: 3,
  name: 'laptop',
  prefix: 'mst_AbC123',
  role: 'Admin',
  read_only: true,
  user: { id: 1, email: 'o@example.com' },
  service_account: false,
  created_by: { id: 1, email: 'o@example.com' },
  created_at: '2026-11-20T10:00:00.000Z',
  expires_at: null,
  last_used_at: '2026-11-26T08:30:00.000Z',
  last_used_address: '10.0.0.7',
  revoked_at: null,
};
const bot = {
  id: 5,
  name: 'ci-bot',
  email: 'ci-bot@default.service-accounts.invalid',
  role: 'Member',
  created_at: '2026-11-20T10:00:00.000Z',
  deactivated_at: null,
  active_tokens: 0,
};

function answer(url: string, method: string): unknown {
  const path = new URL(url, 'http://x').pathname;
  if (path.endsWith('/auth/myrole')) return role;
  if (path.endsWith('/auth/me')) return { id: 1, email: 'o@example.com', role, projects: [] };
  if (method === 'DELETE') return null;
  if (method === 'POST' && path.endsWith('/service-accounts')) return { ...bot, id: 6, name: 'pager', email: 'pager@default.service-accounts.invalid' };
  if (method === 'POST') return { ...laptop, id: 4, name: 'new one', read_only: false, last_used_at: null, token: 'mst_secretvalue' };
  if (path.endsWith('/service-accounts')) return { items: [bot], total: 1 };
  if (path.endsWith('/tokens')) return { items: [], total: 0 };
  return { items: [laptop], total: 1 };
}

beforeEach(() => {
  calls = [];
  role = 'Admin';
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

const writes = () => calls.filter((c) => c.method !== 'GET');
const showTokens = () => renderAt('/default/settings/api-tokens', [{ path: '/:organization/settings/*', element: <ApiTokensSection /> }]);
const showAccounts = () => renderAt('/default/settings/service-accounts', [{ path: '/:organization/settings/*', element: <ServiceAccountsSection /> }]);

describe('token helpers', () => {
  it('offer the roles up to the caller’s and count expiry from now', () => {
    expect(rolesUpTo('Admin')).toEqual(['Admin', 'Member']);
    expect(rolesUpTo(null)).toEqual([]);
    expect(expiryAfter(null)).toBeNull();
    expect(expiryAfter(30, Date.parse('2026-01-01T00:00:00Z'))).toBe('2026-01-31T00:00:00.000Z');
  });
});

describe('API tokens section', () => {
  it('lists the caller’s tokens with prefix, role, last use and expiry', async () => {
    showTokens();
    const table = await screen.findByRole('table', { name: 'Your API tokens' });
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((th) => th.textContent?.trim());
    expect(headers).toEqual(['Name', 'Prefix', 'Role', 'Last used', 'Expires', 'Created', 'Actions']);
    const row = within(table).getAllByRole('row')[1];
    expect(row.textContent).toContain('laptop');
    expect(row.textContent).toContain('mst_AbC123');
    expect(row.textContent).toContain('Read-only');
    expect(row.textContent).toContain('2026-11-26 08:30 UTC');
    expect(row.textContent).toContain('from 10.0.0.7');
    expect(row.textContent).toContain('Never');
  });

  it('creates a token and shows it once, with a copy button and a warning', async () => {
    showTokens();
    const name = await screen.findByRole('textbox', { name: /^Name/ });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    await waitFor(() => expect(screen.getByText('Required')).toBeTruthy());
    expect(writes()).toEqual([]);

    fireEvent.change(name, { target: { value: 'deploy script' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create token' }));
    const shown = await screen.findByRole('status', { name: 'New API token' });
    expect(within(shown).getByText('mst_secretvalue')).toBeTruthy();
    expect(within(shown).getByText('Copy this token now')).toBeTruthy();
    expect(within(shown).getByRole('button', { name: 'Copy token' })).toBeTruthy();
    const [post] = writes();
    expect(post.url).toBe('/api/v1/default/api-tokens');
    expect(post.body).toMatchObject({ name: 'deploy script', role: 'Admin', read_only: false });
    const days = (Date.parse(post.body?.expires_at ?? '') - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.9);
    expect(days).toBeLessThan(30.1);
  });

  it('revokes a token', async () => {
    showTokens();
    fireEvent.click(await screen.findByRole('button', { name: 'Revoke the token laptop (mst_AbC123)' }));
    await waitFor(() => expect(writes()).toEqual([{ method: 'DELETE', url: '/api/v1/default/api-tokens/3', body: undefined }]));
  });
});

describe('service accounts section', () => {
  it('is for Owners and Managers only', async () => {
    role = 'Admin';
    showAccounts();
    expect(await screen.findByText('Owners and Managers only')).toBeTruthy();
    expect(calls.some((c) => c.url.includes('/service-accounts'))).toBe(false);
  });

  it('creates an account, makes it a token and deactivates it after a confirmation', async () => {
    role = 'Manager';
    showAccounts();
    const table = await screen.findByRole('table', { name: 'Service accounts' });
    expect(within(table).getByText('ci-bot@default.service-accounts.invalid')).toBeTruthy();

    fireEvent.change(screen.getByRole('textbox', { name: /^Name/ }), { target: { value: 'pager' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create service account' }));
    await waitFor(() =>
      expect(writes()[0]).toMatchObject({ method: 'POST', url: '/api/v1/default/service-accounts', body: { name: 'pager', role: 'Member' } }),
    );
    expect(await screen.findByText(/Created pager@default.service-accounts.invalid/)).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Tokens of ci-bot' }));
    const section = await screen.findByRole('region', { name: 'Tokens of ci-bot' });
    expect(await within(section).findByText('No tokens')).toBeTruthy();
    fireEvent.change(within(section).getByRole('textbox', { name: /^Name/ }), { target: { value: 'deploys' } });
    fireEvent.click(within(section).getByRole('button', { name: 'Create token' }));
    await within(section).findByText('mst_secretvalue');
    expect(writes()[1]).toMatchObject({ method: 'POST', url: '/api/v1/default/service-accounts/5/tokens', body: { name: 'deploys', role: 'Member' } });

    fireEvent.click(screen.getByRole('button', { name: 'Deactivate ci-bot' }));
    expect(writes()).toHaveLength(2);
    fireEvent.click(screen.getByRole('button', { name: 'Confirm: deactivate ci-bot and revoke its tokens' }));
    await waitFor(() => expect(writes()[2]).toMatchObject({ method: 'DELETE', url: '/api/v1/default/service-accounts/5' }));
  });
});
