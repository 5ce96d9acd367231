// Single sign-on in a real browser: the sign-in page offers "Sign in with <provider>", the person
// signs in on the provider's own page (oidc-provider, test/peers/oidc.ts), and lands signed in on
// Muster's incidents page.
import { afterAll, expect, it } from 'vitest';
import { CLIENT_ID, CLIENT_SECRET, startOidcPeer, type OidcPeer } from '../peers/oidc.ts';
import { axeViolations, describeUi, expectNoErrors, useUiServer } from './browser.ts';

describeUi('web UI: single sign-on', () => {
  let peer: OidcPeer | undefined;
  const ui = useUiServer({
    env: async (origin) => {
      peer = await startOidcPeer([`${origin}/api/v1/auth/sso/callback`]);
      return {
        MUSTER_UI_URL: origin,
        MUSTER_OIDC_ISSUER: peer.issuer,
        MUSTER_OIDC_CLIENT_ID: CLIENT_ID,
        MUSTER_OIDC_CLIENT_SECRET: CLIENT_SECRET,
        MUSTER_OIDC_NAME: 'Test IdP',
      };
    },
  });
  afterAll(async () => {
    await peer?.close();
  });

  it("signs in with the provider's own page and lands on the incidents", async () => {
    const page = await ui.page();
    await page.goto('/default/auth/login');
    const button = page.getByRole('link', { name: 'Sign in with Test IdP' });
    await button.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await button.click();
    // The provider's login page.
    await page.waitForURL(`${peer!.issuer}/**`);
    await page.locator('input[name="login"]').fill('sso-person@example.com');
    await page.locator('input[name="password"]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.waitForURL(`${ui.origin}/default/incidents**`);
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Cases' }).waitFor();
    // The token left the address bar and the history; it is kept where password sign-in keeps it.
    expect(page.url()).not.toContain('token=');
    const token = await page.evaluate(() => localStorage.getItem('muster.token'));
    const me = await fetch(`${ui.origin}/api/v1/default/auth/me`, { headers: { authorization: `Bearer ${token}` } });
    expect((await me.json()).email).toBe('sso-person@example.com');
    expectNoErrors(page);
  });

  it('an Owner turns password sign-in off in Settings, and the sign-in page then offers only the provider', async () => {
    // The first person of the installation (signed in above) is its Owner.
    const page = await ui.page();
    await page.goto('/default/auth/login');
    await page.getByRole('link', { name: 'Sign in with Test IdP' }).click();
    await page.waitForURL(`${peer!.issuer}/**`);
    await page.locator('input[name="login"]').fill('sso-person@example.com');
    await page.locator('input[name="password"]').fill('anything');
    await page.getByRole('button', { name: 'Sign-in' }).click();
    await page.waitForURL(`${ui.origin}/default/incidents**`);
    await page.goto('/default/settings/sign-in');
    const passwords = page.getByRole('switch', { name: 'Members may sign in with a password' });
    await passwords.waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await passwords.uncheck({ force: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('status').filter({ hasText: 'password sign-in is off' }).waitFor();

    const stranger = await ui.page();
    await stranger.goto('/default/auth/login');
    await stranger.getByRole('link', { name: 'Sign in with Test IdP' }).waitFor();
    expect(await stranger.getByRole('textbox', { name: 'Password' }).count()).toBe(0);
    expectNoErrors(page);
    expectNoErrors(stranger);
  });
});
