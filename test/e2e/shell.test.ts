import { expect, it } from 'vitest';
import { axeViolations, describeUi, expectNoErrors, registerInBrowser, signInBrowser, useUiServer } from './browser.ts';

describeUi('web UI: sign-in, frame, colour scheme', () => {
  const ui = useUiServer();

  it('sends a newcomer from / to sign in, registers them, and shows the frame', async () => {
    const page = await ui.page();
    await page.goto('/');
    await page.waitForURL('**/default/auth/login');
    expect(await axeViolations(page)).toEqual([]);
    await registerInBrowser(page, 'first@example.com');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Cases' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expectNoErrors(page);
  });

  it('shows the API refusal in words on a wrong password, and signs in with the right one', async () => {
    const page = await ui.page();
    await page.goto('/default/auth/login');
    await page.getByLabel('Email').fill('first@example.com');
    await page.getByRole('textbox', { name: 'Password' }).fill('not the password');
    await page.getByRole('button', { name: 'Sign in' }).click();
    const alert = page.getByRole('alert');
    await expect(alert.textContent()).resolves.toMatch(/Could not sign in/);
    // A valid address is not called an invalid username: the person learns only that one of the two is wrong.
    await expect(alert.textContent()).resolves.toMatch(/The e-mail address or the password is not right\./);
    await expect(alert.textContent()).resolves.not.toMatch(/username/i);
    await signInBrowser(page, 'first@example.com');
    expectNoErrors(page);
  });

  it('follows the system colour scheme, and remembers a choice', async () => {
    const page = await ui.page({ colorScheme: 'dark' });
    await registerInBrowser(page, 'dark@example.com');
    expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('dark');
    await page.getByRole('button', { name: 'Use the light colour scheme' }).click();
    await page.reload();
    expect(await page.locator('html').getAttribute('data-mantine-color-scheme')).toBe('light');
    expect(await axeViolations(page)).toEqual([]);
  });
});
