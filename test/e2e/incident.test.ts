import { expect, it } from 'vitest';
import { axeViolations, describeUi, expectNoErrors, registerInBrowser, tokenOf, useUiServer } from './browser.ts';

describeUi('web UI: the incident page', () => {
  const ui = useUiServer();

  it('opens an incident by name, changes its status, adds to its timeline, links an entry and follows changes live', async () => {
    const page = await ui.page();
    await registerInBrowser(page, 'commander@example.com');
    const token = await tokenOf(page);
    const apiCall = async (method: string, path: string, body?: unknown) => {
      const res = await fetch(`${ui.origin}/api/v1/default${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      expect(res.status, `${method} ${path}`).toBe(200);
      return res.json();
    };
    const created = await apiCall('POST', '/incidents', { title: 'Checkout is down', description: 'Payments fail with 502.' });
    expect(created.name).toBeTruthy();

    // By name, as links in chat and mail name it.
    await page.goto(`/default/incidents/${created.name}`);
    await page.getByRole('heading', { level: 1, name: 'Checkout is down' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Status through the UI: Stable, then Closed.
    const status = page.getByRole('group', { name: 'Status' });
    await status.getByRole('button', { name: 'Stable' }).click();
    await status.locator('button[aria-pressed="true"]', { hasText: 'Stable' }).waitFor();
    await status.getByRole('button', { name: 'Closed' }).click();
    await status.locator('button[aria-pressed="true"]', { hasText: 'Closed' }).waitFor();
    expect((await apiCall('GET', `/incidents/${created.id}`)).status).toBe('Closed');

    // `t` opens the timeline; an entry added there appears in it.
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('t');
    await page.waitForURL('**?tab=timeline');
    await page.getByLabel('What happened').fill('Rolled back the payment gateway');
    await page.getByRole('button', { name: 'Add to timeline' }).click();
    const entries = page.getByRole('list', { name: 'Timeline entries' });
    await entries.getByText('Rolled back the payment gateway').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Its deep link, opened afresh, scrolls to it and highlights it.
    const events = (await apiCall('GET', `/incidents/${created.id}`)).events as { uuid: string; description: string }[];
    const added = events.find((e) => e.description === 'Rolled back the payment gateway')!;
    const link = await entries.locator(`#event-${added.uuid}`).getByRole('link').getAttribute('href');
    expect(link).toBe(`/default/incidents/${created.name}?tab=timeline#event-${added.uuid}`);
    const fresh = await ui.page();
    await fresh.goto('/default/auth/login');
    await fresh.evaluate((t) => localStorage.setItem('muster.token', t!), token);
    await fresh.goto(link!);
    const target = fresh.locator(`#event-${added.uuid}`);
    await target.waitFor();
    await expect.poll(() => target.getAttribute('data-highlighted')).toBe('true');
    await expect.poll(() => target.evaluate((el) => document.activeElement === el)).toBe(true);
    expect(await target.isVisible()).toBe(true);

    // Live: a change made elsewhere (the API) shows without a reload.
    const current = await apiCall('GET', `/incidents/${created.id}`);
    await apiCall('PUT', `/incidents/${created.id}`, { ...current, title: 'Checkout is down in EU' });
    await fresh.getByRole('heading', { level: 1, name: 'Checkout is down in EU' }).waitFor({ timeout: 15_000 });

    // A numeric id opens the same page.
    await page.goto(`/default/incidents/${created.id}`);
    await page.getByRole('heading', { level: 1, name: 'Checkout is down in EU' }).waitFor();

    expectNoErrors(page);
    expectNoErrors(fresh);
  });

  it('says so in words when no incident has that name', async () => {
    const page = await ui.page();
    await registerInBrowser(page, 'someone@example.com');
    await page.goto('/default/incidents/no-such-incident');
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/There is no incident called no-such-incident/);
    expect(await axeViolations(page)).toEqual([]);
    expectNoErrors(page);
  });
});
