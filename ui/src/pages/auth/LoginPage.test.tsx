import { cleanup, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderAt } from '../../test/render.tsx';
import LoginPage from './LoginPage.tsx';
import SsoLandingPage from './SsoLandingPage.tsx';

let methods: unknown;

beforeEach(() => {
  localStorage.clear();
  vi.stubGlobal('fetch', async () => new Response(JSON.stringify(methods), { status: 200, headers: { 'content-type': 'application/json' } }));
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

describe('the sign-in page', () => {
  it('offers the provider beside the password form', async () => {
    methods = { password: true, sso: { name: 'Okta', url: '/api/v1/acme/auth/sso/login' } };
    renderAt('/acme/auth/login', [{ path: '/:organization/auth/login', element: <LoginPage /> }]);
    const button = await screen.findByRole('link', { name: 'Sign in with Okta' });
    expect(button.getAttribute('href')).toBe('/api/v1/acme/auth/sso/login');
    expect(screen.getByLabelText(/Password/, { selector: 'input' })).toBeTruthy();
  });

  it('hides the password form when the organization turned passwords off', async () => {
    methods = { password: false, sso: { name: 'Okta', url: '/api/v1/acme/auth/sso/login' } };
    renderAt('/acme/auth/login', [{ path: '/:organization/auth/login', element: <LoginPage /> }]);
    await screen.findByRole('link', { name: 'Sign in with Okta' });
    await waitFor(() => expect(screen.queryByLabelText(/Password/, { selector: 'input' })).toBeNull());
  });
});

describe('the single sign-on landing', () => {
  it('keeps the token from the fragment as password sign-in does and goes to the incidents', async () => {
    const { router } = renderAt('/acme/auth/sso#token=header.payload.sig', [
      { path: '/:organization/auth/sso', element: <SsoLandingPage /> },
      { path: '/:organization/incidents', element: <p>incidents</p> },
    ]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/acme/incidents'));
    expect(localStorage.getItem('muster.token')).toBe('header.payload.sig');
    expect(localStorage.getItem('muster.organization')).toBe('acme');
  });
});
