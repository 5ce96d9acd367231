// The signals pages (a definition made and an instance ingested through the UI, seen among the
// instances, a filter whose preview shows what it matches) and the tasks page (a task of mine,
// resolved in place), each page free of console errors and of serious accessibility violations.
import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { axeViolations, describeUi, expectNoErrors, registerInBrowser, tokenOf, useUiServer } from './browser.ts';

/** A call to the API with the page's token. */
async function apiCall(ui: { origin: string }, page: Page, method: string, path: string, body?: unknown) {
  const token = await tokenOf(page);
  const res = await fetch(`${ui.origin}/api/v1/default${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Waits for the page's transitions to end (a drawer sliding in is measured by axe as it will look). */
const settled = (page: Page) => page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)));

describeUi('web UI: signals and tasks', () => {
  const ui = useUiServer();

  it('creates a definition, ingests an instance, shows it, and previews a filter over it', async () => {
    const page = await ui.page();
    await registerInBrowser(page, 'signals@example.com');

    // A definition, through its form.
    await page.goto('/default/signals/definitions/new');
    await page.getByRole('heading', { level: 1, name: 'Signals' }).waitFor();
    await expect.poll(() => page.getByRole('combobox', { name: 'Project' }).inputValue()).toBe('default');
    await page.getByRole('button', { name: 'Create definition' }).click();
    // The form says what the API's shape would refuse, before anything is sent.
    await page.getByText('must NOT have fewer than 3 characters').or(page.getByText("must have required property 'name'")).first().waitFor();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Database login burst');
    await page.getByRole('textbox', { name: 'Variant', exact: true }).fill('db-login-burst');
    await page.getByRole('textbox', { name: 'External id', exact: true }).fill('db-login-burst-1');
    await page.getByRole('textbox', { name: 'Owner', exact: true }).fill('secops');
    await page.getByRole('button', { name: 'Create definition' }).click();
    await page.waitForURL(/\/default\/signals\/definitions\/\d+$/);
    await page.getByRole('heading', { name: 'Ingest a test instance' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // An instance, through the ingestion panel (its raw document names the variant and host db-1).
    await page.getByRole('button', { name: 'Ingest instance' }).click();
    await page.getByText('Instance ingested').waitFor();
    // Another, through the API, on another host.
    await apiCall(ui, page, 'POST', '/signals/instances', { project: { name: 'default' }, raw: { variant: 'db-login-burst', host: 'web-2' } });

    // Both among the instances; the first one's raw document in its drawer.
    await page.getByRole('link', { name: 'See it among the instances' }).click();
    await page.waitForURL(/\/signals\/instances\?instance=/);
    const drawer = page.getByRole('dialog');
    await drawer.getByLabel('Raw document').getByText('"host": "db-1"').waitFor();
    await settled(page);
    expect(await axeViolations(page)).toEqual([]);
    await page.keyboard.press('Escape');
    await drawer.waitFor({ state: 'hidden' });
    await settled(page);
    const table = page.getByRole('table', { name: 'Signal instances' });
    await expect.poll(() => table.getByRole('link', { name: /^Instance of Database login burst/ }).count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);

    // A filter: its preview says which of the project's instances the expression matches.
    await page.getByRole('navigation', { name: 'Signal views' }).getByRole('link', { name: 'Filters' }).click();
    await page.getByRole('heading', { name: 'No signal filters' }).waitFor();
    await page.getByRole('link', { name: 'New filter' }).click();
    await page.getByRole('textbox', { name: 'Name', exact: true }).fill('Quiet db-1');
    await page.getByText(/of the 2 newest instances match/).waitFor();
    expect(await page.getByRole('status').filter({ hasText: 'newest' }).textContent()).toBe('2 of the 2 newest instances match; 2 in all.');
    await page.getByRole('textbox', { name: 'Expression' }).fill('[{"field": "raw", "op": "ilike", "value": "%db-1%"}]');
    await page.getByText('1 of the 2 newest instances match; 1 in all.').waitFor();
    const preview = page.getByRole('table', { name: /whether the expression matches/ });
    expect(await preview.getByRole('row').filter({ hasText: 'db-1' }).getByText('yes', { exact: true }).count()).toBe(1);
    expect(await preview.getByRole('row').filter({ hasText: 'web-2' }).getByText('no', { exact: true }).count()).toBe(1);
    // An expression the API cannot run says why, in the API's words.
    await page.getByRole('textbox', { name: 'Expression' }).fill('[{"field": "nope", "value": 1}]');
    await page.getByText("SignalInstance has no attribute 'nope'").waitFor();
    await page.getByRole('textbox', { name: 'Expression' }).fill('[{"field": "raw", "op": "ilike", "value": "%db-1%"}]');
    await page.getByText('1 of the 2 newest instances match; 1 in all.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Create filter' }).click();
    await page.waitForURL(/\/default\/signals\/filters\/\d+$/);
    await page.getByRole('heading', { level: 2, name: 'Quiet db-1' }).waitFor();
    // Loaded again, the saved filter's preview is the same.
    await page.reload();
    await page.getByText('1 of the 2 newest instances match; 1 in all.').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'All filters' }).click();
    await page.getByRole('table', { name: 'Signal filters' }).getByRole('link', { name: 'Quiet db-1' }).waitFor();
    await page.getByRole('navigation', { name: 'Signal views' }).getByRole('link', { name: 'Definitions' }).click();
    await page.getByRole('table', { name: 'Signal definitions' }).getByRole('link', { name: 'Database login burst' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expectNoErrors(page);
  }, 300_000);

  it('lists a task of mine first and resolves it in place', async () => {
    const page = await ui.page();
    await registerInBrowser(page, 'tasks@example.com');
    // Someone else's task, then mine, on one incident.
    const incident = await apiCall(ui, page, 'POST', '/incidents', { title: 'Backups failing', description: 'The nightly backup failed.' });
    await apiCall(ui, page, 'POST', '/tasks', {
      incident: { id: incident.id },
      description: 'Someone else checks the replica',
      owner: { individual: { email: 'other@example.com' } },
      assignees: [{ individual: { email: 'other@example.com' } }],
    });
    await apiCall(ui, page, 'POST', '/tasks', { incident: { id: incident.id }, description: 'Check the backup job' });

    await page.goto('/default/tasks');
    await page.getByRole('heading', { level: 1, name: 'Tasks' }).waitFor();
    const table = page.getByRole('table', { name: 'Tasks' });
    await table.getByText('Check the backup job').waitFor();
    // Mine first, marked; then the other.
    const rows = table.getByRole('row');
    await expect.poll(() => rows.count()).toBe(3);
    expect(await rows.nth(1).textContent()).toMatch(/^mineCheck the backup job/);
    expect(await rows.nth(2).textContent()).toMatch(/^Someone else checks the replica/);
    await table
      .getByRole('link', { name: new RegExp(`${incident.name} Backups failing`) })
      .first()
      .waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByText('Only mine').click();
    await expect.poll(() => rows.count()).toBe(2);
    await page.getByRole('button', { name: 'Resolve task: Check the backup job' }).click();
    await page.getByRole('button', { name: 'Reopen task: Check the backup job' }).waitFor();
    expect(await rows.nth(1).textContent()).toMatch(/Resolved/);
    const [task] = (
      await apiCall(ui, page, 'GET', `/tasks?filter=${encodeURIComponent(JSON.stringify([{ field: 'description', value: 'Check the backup job' }]))}`)
    ).items;
    expect(task.status).toBe('Resolved');

    // Filtered by status: the open ones.
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Open' }).click();
    await page.getByRole('heading', { name: 'No tasks of yours' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expectNoErrors(page);
  }, 180_000);
});
