import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { UserRegister } from '../../../../src/app/ui-shapes.ts';
import { renderAt } from '../../test/render.tsx';
import { AuthForm } from './AuthForm.tsx';

// The browser's fetch is the network: it is replaced by a recorder that answers as the API would.
const calls: { url: string; body: unknown }[] = [];
let answer: { status: number; body: unknown };

beforeEach(() => {
  calls.length = 0;
  localStorage.clear();
  vi.stubGlobal('fetch', async (url: string, init: RequestInit) => {
    calls.push({ url, body: JSON.parse(String(init.body)) });
    return new Response(JSON.stringify(answer.body), { status: answer.status, headers: { 'content-type': 'application/json' } });
  });
});
afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const form = () => <AuthForm title="Register" action="register" shape={UserRegister} submit="Create account" footer={null} />;

describe('the registration form', () => {
  it('checks the fields against the API shape and sends nothing while they are wrong', async () => {
    renderAt('/acme/auth/register', [{ path: '/:organization/auth/register', element: form() }]);
    fireEvent.input(screen.getByLabelText(/Email/), { target: { value: 'not an address' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect(await screen.findByText('Enter an email address')).toBeTruthy();
    expect(calls).toEqual([]);
  });

  it('registers in the organization of the path, keeps the token and goes to the incidents', async () => {
    answer = { status: 200, body: { token: 'header.eyJlbWFpbCI6Im5ld0BleGFtcGxlLmNvbSJ9.sig' } };
    const { router } = renderAt('/acme/auth/register?invitation=inv-1', [
      { path: '/:organization/auth/register', element: form() },
      { path: '/:organization/incidents', element: <p>incidents</p> },
    ]);
    fireEvent.input(screen.getByLabelText(/Email/), { target: { value: 'new@example.com' } });
    fireEvent.input(screen.getByLabelText(/Password/, { selector: 'input' }), { target: { value: 'a long passphrase' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/acme/incidents'));
    expect(calls).toEqual([{ url: '/api/v1/acme/auth/register', body: { email: 'new@example.com', password: 'a long passphrase', invitation: 'inv-1' } }]);
    expect(localStorage.getItem('muster.token')).toBe(answer.body && (answer.body as { token: string }).token);
  });

  it("shows the API's reason when it refuses", async () => {
    answer = { status: 403, body: { detail: [{ msg: 'Registration in this organization is by invitation only.' }] } };
    renderAt('/acme/auth/register', [{ path: '/:organization/auth/register', element: form() }]);
    fireEvent.input(screen.getByLabelText(/Email/), { target: { value: 'new@example.com' } });
    fireEvent.input(screen.getByLabelText(/Password/, { selector: 'input' }), { target: { value: 'a long passphrase' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findByRole('alert')).textContent).toContain('Registration in this organization is by invitation only.');
  });

  it('without a token, says a link is on its way and keeps nothing', async () => {
    answer = { status: 200, body: { token: null } };
    renderAt('/acme/auth/register', [{ path: '/:organization/auth/register', element: form() }]);
    fireEvent.input(screen.getByLabelText(/Email/), { target: { value: 'new@example.com' } });
    fireEvent.input(screen.getByLabelText(/Password/, { selector: 'input' }), { target: { value: 'a long passphrase' } });
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    expect((await screen.findByRole('status')).textContent).toContain('a link to confirm it is on its way');
    expect(localStorage.getItem('muster.token')).toBeNull();
  });
});
