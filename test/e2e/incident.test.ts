import { expect, it } from 'vitest';
import { axeViolations, describeUi, expectNoErrors, personPages, registerInBrowser, useUiServer } from './browser.ts';

describeUi('web UI: the incident page', () => {
  const ui = useUiServer();
  // The first person registered is the organization's Owner (cost types and tags need an Admin).
  const OWNER = 'commander@example.com';
  const ownerPage = personPages(ui, OWNER);

  it('opens an incident by name, changes its status, adds to its timeline, links an entry and follows changes live', async () => {
    const { page, apiCall, token } = await ownerPage();
    const created = await apiCall('POST', '/incidents', { title: 'Checkout is down', description: 'Payments fail with 502.' });
    expect(created.name).toBeTruthy();

    // By name, as links in chat and mail name it.
    await page.goto(`/default/incidents/${created.name}`);
    await page.getByRole('heading', { level: 1, name: 'Checkout is down' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Status through the UI ("post update"): Stable, then Closed with its resolution.
    const status = page.getByRole('group', { name: 'Status' });
    const dialog = page.getByRole('dialog', { name: 'Post an update' });
    await status.getByRole('button', { name: 'Stable' }).click();
    await dialog.getByRole('button', { name: 'Post update' }).click();
    await status.locator('button[aria-pressed="true"]', { hasText: 'Stable' }).waitFor();
    await status.getByRole('button', { name: 'Closed' }).click();
    await dialog.getByRole('textbox', { name: 'Resolution' }).fill('Rolled back the payment gateway.');
    await dialog.getByRole('button', { name: 'Post update' }).click();
    await status.locator('button[aria-pressed="true"]', { hasText: 'Closed' }).waitFor();
    expect((await apiCall('GET', `/incidents/${created.id}`)).status).toBe('Closed');

    // `l` opens the timeline; an entry added there appears in it.
    await page.locator('body').click({ position: { x: 5, y: 300 } });
    await page.keyboard.press('l');
    await page.waitForURL('**?tab=timeline');
    await page.getByLabel('What happened').fill('Rolled back the payment gateway');
    await page.getByRole('button', { name: 'Add to timeline' }).click();
    const entries = page.getByRole('list', { name: 'Timeline entries' });
    await entries.getByText('Rolled back the payment gateway').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // `s` brings the focus to the status, on any tab.
    await page.keyboard.press('s');
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Closed');

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
  }, 120_000);

  it('edits the title in place, adds people, tasks, reports, costs and tags, corrects a timeline entry and exports the timeline, every tab accessible', async () => {
    const { page, apiCall } = await ownerPage({ colorScheme: 'dark' });
    const created = await apiCall('POST', '/incidents', { title: 'Search is slow', description: 'p99 at 4 s.' });
    await apiCall('POST', '/incident_cost_types', { name: 'Credits', project: { name: 'default' } });
    await apiCall('POST', '/tag_types', { name: 'Component', project: { name: 'default' } });
    await apiCall('POST', '/tags', { name: 'search-api', tag_type: { name: 'Component' }, project: { name: 'default' } });
    await page.goto(`/default/incidents/${created.name}`);

    // Overview: the title edited where it stands.
    await page.getByRole('button', { name: 'Edit the title' }).click();
    await page.getByRole('textbox', { name: 'Title' }).fill('Search is very slow');
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: 'Search is very slow' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    const tab = async (name: RegExp) => {
      await page.getByRole('tab', { name }).click();
      await page.getByRole('tabpanel').waitFor();
    };

    await tab(/^People/);
    // Someone Muster does not know: added only by the explicit choice.
    await page.getByRole('combobox', { name: 'Person', exact: true }).fill('helper@corp.example');
    await page.getByRole('option', { name: 'Add helper@corp.example (not known to Muster)' }).click();
    await page.getByRole('button', { name: 'Add', exact: true }).click();
    const participants = page.getByRole('table', { name: 'Participants' });
    await participants.getByText('helper@corp.example').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    // Make commander, then the former commander taken off: their roles end, they stay listed.
    await participants
      .getByRole('row')
      .filter({ hasText: 'helper@corp.example' })
      .getByRole('button', { name: /^Make .+ the commander$/ })
      .click();
    await expect
      .poll(async () => (await apiCall('GET', `/incidents/${created.id}`)).commander?.individual.email, { timeout: 15_000 })
      .toBe('helper@corp.example');
    const former = (await apiCall('GET', `/incidents/${created.id}`)).participants.find(
      (p: { individual: { email: string } }) => p.individual.email !== 'helper@corp.example',
    );
    await page.getByRole('button', { name: `Remove ${former.individual.name || former.individual.email}` }).click();
    await expect
      .poll(
        async () =>
          (await apiCall('GET', `/incidents/${created.id}`)).participants
            .find((p: { id: number }) => p.id === former.id)
            .participant_roles.every((r: { renounced_at: string | null }) => r.renounced_at),
        { timeout: 15_000 },
      )
      .toBe(true);

    await tab(/^Tasks/);
    await page.getByRole('textbox', { name: 'Task', exact: true }).fill('Add an index');
    await page.getByRole('button', { name: 'Add task' }).click();
    await page.getByRole('table', { name: 'Tasks' }).getByText('Add an index').waitFor();
    await page.getByRole('button', { name: 'Resolve task: Add an index' }).click();
    await page.getByRole('button', { name: 'Reopen task: Add an index' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await tab(/^Reports/);
    const tactical = page.getByRole('form', { name: 'New tactical report' });
    await tactical.getByRole('button', { name: 'Create tactical report' }).click();
    await tactical.getByText('Fill in conditions').waitFor();
    await tactical.getByLabel('Conditions').fill('Degraded');
    await tactical.getByLabel('Actions').fill('Scaling out');
    await tactical.getByLabel('Needs').fill('Nothing');
    await tactical.getByRole('button', { name: 'Create tactical report' }).click();
    await tactical.getByText('Created.').waitFor();
    expect((await apiCall('GET', `/incidents/${created.id}`)).last_tactical_report.details).toMatchObject({ conditions: 'Degraded' });
    expect(await axeViolations(page)).toEqual([]);

    await tab(/^Costs/);
    await page.getByRole('combobox', { name: 'Cost type' }).click();
    await page.getByRole('option', { name: 'Credits' }).click();
    await page.getByLabel('Amount').fill('250');
    await page.getByRole('button', { name: 'Add cost' }).click();
    await page.getByRole('table', { name: 'Costs' }).getByText('250').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await tab(/^Tags/);
    await page.getByRole('combobox', { name: 'Add a tag' }).click();
    await page.getByRole('option', { name: 'Component: search-api' }).click();
    await page.getByRole('button', { name: 'Add tag' }).click();
    await page.getByRole('button', { name: 'Remove the tag Component: search-api' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await tab(/^Documents/);
    expect(await axeViolations(page)).toEqual([]);

    await tab(/^Timeline/);
    await page.getByLabel('What happened').fill('Typo in this entyr');
    await page.getByRole('button', { name: 'Add to timeline' }).click();
    const entries = page.getByRole('list', { name: 'Timeline entries' });
    const entry = entries.getByRole('listitem').filter({ hasText: 'Typo in this entyr' });
    await entry.getByRole('button', { name: 'Edit this entry' }).click();
    // While it is edited, the entry shows a form instead of its words.
    await entries.getByLabel('What happened').fill('Typo fixed in this entry');
    await entries.getByRole('button', { name: 'Save' }).click();
    await entries.getByText('Typo fixed in this entry').waitFor();
    // Filters narrow what is shown, and the export writes what is shown.
    await page.getByLabel('Words').fill('typo fixed');
    await page.waitForURL(/tab=timeline&words=typo\+fixed$/);
    await page.getByText('1 of').waitFor();
    const download = page.waitForEvent('download');
    await page.getByRole('button', { name: /Export shown entries as CSV/ }).click();
    const file = await download;
    expect(file.suggestedFilename()).toBe(`${created.name}-timeline.csv`);
    const csv = await new Response((await file.createReadStream()) as unknown as ReadableStream).text();
    expect(csv.split('\r\n')[0]).toBe('started_at,type,source,owner,description,uuid');
    expect(csv).toContain('Custom event,Incident Participant,commander@example.com,Typo fixed in this entry');
    expect(await axeViolations(page)).toEqual([]);
    const fixed = entries.getByRole('listitem').filter({ hasText: 'Typo fixed in this entry' });
    await fixed.getByRole('button', { name: 'Delete this entry' }).click();
    await fixed.getByRole('button', { name: 'Delete it' }).click();
    await page.getByText('No entry matches').waitFor();
    expectNoErrors(page);
  }, 120_000);

  it('says so in words when no incident has that name', async () => {
    const page = await ui.page();
    await registerInBrowser(page, 'someone@example.com');
    await page.goto('/default/incidents/no-such-incident');
    await expect(page.getByRole('alert').textContent()).resolves.toMatch(/There is no incident called no-such-incident/);
    expect(await axeViolations(page)).toEqual([]);
    expectNoErrors(page);
  });
});
