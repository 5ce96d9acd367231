// The incident page as a war room: the during-incident journey (post an update, add a note, two
// tasks, go Stable, see the last 10 minutes) counted in clicks and keys, and a save that meets a
// colleague's: the API answers the stale save 412 and the page keeps and shows both changes.
import { expect, it } from 'vitest';
import { axeViolations, counted, describeUi, expectNoErrors, personPages, useUiServer } from './browser.ts';
import { shootJourney } from './journey-shots.ts';

describeUi('web UI: the incident page as a war room', () => {
  const ui = useUiServer();
  const OWNER = 'commander@example.com';
  const ownerPage = personPages(ui, OWNER);

  it('declaring: n puts the focus in the title; priority, severity and two people picked, not typed, in at most 6 clicks', async () => {
    const { page, apiCall } = await ownerPage();
    for (const [name, email] of [
      ['Ana Lima', 'ana@example.com'],
      ['Ben Okafor', 'ben@example.com'],
    ]) {
      await apiCall('POST', '/individuals', { name, email, project: { name: 'default' } });
    }
    await page.getByRole('heading', { level: 1, name: 'Incidents' }).waitFor();
    const { effort, click, type, press } = counted(page);
    await page.keyboard.press('n');
    effort.keys += 1;
    await page.waitForURL('**/default/incidents/report');
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? ''), { timeout: 15_000 })
      .toMatch(/^Title/);
    await type('Card payments declined');
    await page.keyboard.press('Tab');
    await type('Issuer answers 05 to every card since 14:02 UTC.');
    await click(page.getByRole('combobox', { name: 'Priority', exact: true }));
    await click(page.getByRole('option', { name: 'High' }));
    await click(page.getByRole('combobox', { name: 'Severity', exact: true }));
    await click(page.getByRole('option', { name: 'Critical' }));
    // People: picked by a part of their name, Enter taking the one offered.
    const people = page.getByRole('combobox', { name: 'People', exact: true });
    await people.focus();
    // A person presses Enter once they see the match, so the test waits for it too.
    await type('Ana');
    await page.getByRole('option', { name: /ana@/i }).first().waitFor();
    await press('Enter');
    await type('okafor');
    await page
      .getByRole('option', { name: /okafor/i })
      .first()
      .waitFor();
    await press('Enter');
    expect(await axeViolations(page)).toEqual([]);
    // A typo is not a person: an unknown address is offered only as an explicit choice.
    await type('ana@exmaple.com');
    await page.getByRole('option', { name: 'Add ana@exmaple.com (not known to Muster)' }).waitFor();
    for (let i = 0; i < 'ana@exmaple.com'.length; i++) await page.keyboard.press('Backspace');
    effort.keys += 'ana@exmaple.com'.length;
    await click(page.getByRole('button', { name: 'Report incident' }));
    await page.waitForURL(/\/default\/incidents\/(?!report)[^/?]+$/);
    await page.getByRole('heading', { level: 1, name: 'Card payments declined' }).waitFor();
    expect(effort.clicks).toBeLessThanOrEqual(6);
    const name = decodeURIComponent(new URL(page.url()).pathname.split('/').at(-1)!);
    const [created] = (await apiCall('GET', `/incidents?filter=${encodeURIComponent(JSON.stringify([{ field: 'name', op: '==', value: name }]))}`)).items;
    const incident = await apiCall('GET', `/incidents/${created.id}`);
    expect(incident).toMatchObject({
      incident_priority: { name: 'High' },
      incident_severity: { name: 'Critical' },
      commander: { individual: { email: 'ana@example.com' } },
    });
    expect(incident.participants.map((p: { individual: { email: string } }) => p.individual.email).sort()).toEqual([
      'ana@example.com',
      'ben@example.com',
      OWNER,
    ]);
    console.info(`declaring: ${effort.clicks} clicks, ${effort.keys} keys`);
    expect(await shootJourney(page, 'declare')).toEqual({ light: [], dark: [] });
    expectNoErrors(page);
  }, 120_000);

  it('during the incident: an update, a note, two tasks and Stable in at most 10 clicks, the last 10 minutes in view', async () => {
    const { page, apiCall } = await ownerPage();
    const created = await apiCall('POST', '/incidents', {
      title: 'Checkout answers 502',
      description: 'Payments fail in eu-west.',
      incident_priority: { name: 'High' },
    });
    await page.goto(`/default/incidents/${created.name}`);
    await page.getByRole('heading', { level: 1, name: 'Checkout answers 502' }).waitFor();
    // The short label said on a call, beside the name the links use.
    await page.getByText(`${created.name.replace(/^.*?(\d+)$/, 'INC-$1')} · ${created.name}`, { exact: true }).waitFor();
    // The overview leads with the status and how long it has held, the priority and the severity.
    await page.getByText(/^Active · \d+ min$/).waitFor();
    await page.getByText('Priority High').waitFor();
    await page.getByText('Severity Undetermined').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    const { effort, click, type } = counted(page);
    const dialog = page.getByRole('dialog', { name: 'Post an update' });

    // Post an update: the dialog opens with the focus in the update.
    await click(page.getByRole('button', { name: 'Post update' }));
    await dialog.getByRole('textbox', { name: 'Update' }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName)).toBe('TEXTAREA');
    await type('Failing over to eu-central');
    expect(await axeViolations(page)).toEqual([]);
    await click(dialog.getByRole('button', { name: 'Post update' }));
    const latest = page.getByRole('region', { name: 'Latest update' });
    await latest.getByText('Failing over to eu-central').waitFor();
    await latest.getByText(new RegExp(`${OWNER} · (just now|\\d+ min ago)`)).waitFor();

    // A note, in one line.
    await click(page.getByRole('textbox', { name: 'Note' }));
    await type('Failover started by the DB team', 'Enter');
    const recent = page.getByRole('region', { name: 'Recent timeline' });
    await recent.getByText('Failover started by the DB team').waitFor();

    // Two tasks, one after the other.
    await click(page.getByRole('textbox', { name: 'New task' }));
    await type('Page the payments on-call', 'Enter');
    await type('Draft the status page', 'Enter');
    const tasks = page.getByRole('region', { name: 'Open tasks' });
    await tasks.getByText('Page the payments on-call').waitFor();
    await tasks.getByText('Draft the status page').waitFor();

    // Stable: the dialog says what happens to the priority before it happens.
    await click(page.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'Stable' }));
    await dialog.getByText("The priority goes from High to Low, the project's default").waitFor();
    await click(dialog.getByRole('button', { name: 'Post update' }));
    await page.getByText(/^Stable · \d+ min$/).waitFor();
    await page.getByText('Priority Low').waitFor();

    // The last 10 minutes, newest first, on the same page: no click.
    await recent.getByRole('heading', { name: 'Last 10 minutes' }).waitFor();
    const entries = recent.getByRole('list', { name: 'Newest timeline entries' }).getByRole('listitem');
    await expect.poll(async () => (await entries.allTextContents()).join('\n')).toContain('Failover started by the DB team');
    const texts = await entries.allTextContents();
    expect(texts.findIndex((t) => t.includes('Stable'))).toBeLessThan(texts.findIndex((t) => t.includes('Failover started')));

    console.log(`during-incident journey: ${effort.clicks} clicks, ${effort.keys} keys`);
    expect(effort.clicks).toBeLessThanOrEqual(10);
    // The entries carry what was said: the update's words, the tasks'.
    const newest = recent.getByRole('list', { name: 'Newest timeline entries' });
    await newest.getByRole('listitem').filter({ hasText: 'Incident tactical report created' }).getByText('Failing over to eu-central').first().waitFor();
    await newest.getByRole('listitem').filter({ hasText: 'New incident task created' }).getByText('Draft the status page').first().waitFor();
    // The system's own bookkeeping is folded, a click away.
    const folded = newest.getByRole('button', { name: 'Show' }).first();
    await folded.click();
    await newest
      .getByRole('list', { name: /^\d+ system events$/ })
      .first()
      .waitFor();
    expect(await shootJourney(page, 'during')).toEqual({ light: [], dark: [] });
    expectNoErrors(page);
  }, 120_000);

  it('Closed asks for the resolution and shows the tasks still open', async () => {
    const { page, apiCall } = await ownerPage();
    const created = await apiCall('POST', '/incidents', { title: 'Queue backlog', description: 'Jobs wait 20 min.' });
    for (const description of ['Drain the dead letters', 'Write the review']) {
      await apiCall('POST', '/tasks', { description, incident: { id: created.id }, assignees: [], status: 'Open' });
    }
    await page.goto(`/default/incidents/${created.name}`);
    await page.getByRole('region', { name: 'Open tasks' }).getByText('Write the review').waitFor();
    const dialog = page.getByRole('dialog', { name: 'Post an update' });
    await page.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'Closed' }).click();
    await dialog.getByText('2 tasks are still open').waitFor();
    await dialog.getByText('Drain the dead letters').waitFor();
    await dialog.getByRole('button', { name: 'Post update' }).click();
    await dialog.getByText('Say how it was resolved').waitFor();
    await dialog.getByRole('textbox', { name: 'Resolution' }).fill('Scaled the workers; backlog drained.');
    expect(await axeViolations(page)).toEqual([]);
    await dialog.getByRole('button', { name: 'Post update' }).click();
    await page.getByText(/^Closed · \d+ min$/).waitFor();
    const closed = await apiCall('GET', `/incidents/${created.id}`);
    expect(closed).toMatchObject({ status: 'Closed', resolution: 'Scaled the workers; backlog drained.' });
    expectNoErrors(page);
  }, 120_000);

  it('Ctrl-K: the command palette sets the status, adds a note and goes places, all from the keyboard', async () => {
    const { page, apiCall } = await ownerPage();
    const created = await apiCall('POST', '/incidents', { title: 'Login errors', description: 'SSO answers 500.' });
    await page.goto(`/default/incidents/${created.name}`);
    await page.getByRole('heading', { level: 1, name: 'Login errors' }).waitFor();
    const palette = page.getByRole('dialog', { name: 'Commands' });
    const command = async (typed: string) => {
      await page.keyboard.press('Control+k');
      await palette.getByRole('combobox', { name: 'What to do' }).waitFor();
      await page.keyboard.type(typed);
      await page.keyboard.press('Enter');
      await palette.waitFor({ state: 'hidden' });
    };

    // "stable" finds "Set status: Stable": the post-update dialog opens on Stable.
    await command('stable');
    const dialog = page.getByRole('dialog', { name: 'Post an update' });
    await dialog.getByRole('textbox', { name: 'Update' }).waitFor();
    await page.keyboard.type('Failed over to the second identity provider.');
    await dialog.getByRole('button', { name: 'Post update' }).click();
    await page.getByText(/^Stable · \d+ min$/).waitFor();

    // "note" puts the focus in the note box.
    await command('note');
    await expect.poll(() => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent)).toMatch(/^Note/);
    await page.keyboard.type('Watching error rates.');
    await page.keyboard.press('Enter');
    await page.getByRole('list', { name: 'Newest timeline entries' }).getByText('Watching error rates.').waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Going places, and a search for what was typed when no command fits.
    await command('go cases');
    await page.waitForURL('**/default/cases');
    await command('login errors');
    await page.waitForURL(/\/default\/search\?q=login%20errors$/);
    const incident = await apiCall('GET', `/incidents/${created.id}`);
    expect(incident.status).toBe('Stable');
    expectNoErrors(page);
  }, 120_000);

  it('action keys on the incident page, listed under ?: a task, a note and a person from the keyboard', async () => {
    const { page, apiCall } = await ownerPage({ colorScheme: 'dark' });
    await apiCall('POST', '/individuals', { name: 'Cleo Park', email: 'cleo@example.com', project: { name: 'default' } });
    const created = await apiCall('POST', '/incidents', { title: 'DNS answers slowly', description: 'p99 at 900 ms.' });
    await page.goto(`/default/incidents/${created.name}`);
    await page.getByRole('heading', { level: 1, name: 'DNS answers slowly' }).waitFor();
    const { effort, type, press } = counted(page);
    await press('?');
    const help = page.getByRole('dialog', { name: 'Keyboard shortcuts' });
    for (const what of ['Incident page: post an update', 'Incident page: new task', 'Incident page: add a note', 'Incident page: add a person'])
      await help.getByText(what).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await press('Escape');
    await help.waitFor({ state: 'hidden' });
    const focused = () => page.evaluate(() => (document.activeElement as HTMLInputElement | null)?.labels?.[0]?.textContent ?? '');
    await press('t');
    await expect.poll(focused, { timeout: 15_000 }).toMatch(/^New task/);
    await type('Flush the resolver caches', 'Enter');
    await page.getByRole('region', { name: 'Open tasks' }).getByText('Flush the resolver caches').waitFor();
    // Escape leaves the box; the keys act again.
    await press('Escape');
    await press('a');
    await expect.poll(focused, { timeout: 15_000 }).toMatch(/^Note/);
    await type('Resolver pool at 100% CPU', 'Enter');
    await page.getByRole('list', { name: 'Newest timeline entries' }).getByText('Resolver pool at 100% CPU').waitFor();
    await press('Escape');
    await press('p');
    await expect.poll(focused, { timeout: 15_000 }).toMatch(/^Person/);
    await type('cleo');
    await page.getByRole('option', { name: 'Cleo Park <cleo@example.com>' }).waitFor();
    await press('Enter');
    await press('Tab');
    await press('Tab');
    await press('Enter');
    await page.getByRole('table', { name: 'Participants' }).getByText('cleo@example.com').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    console.info(`action keys: ${effort.clicks} clicks, ${effort.keys} keys`);
    expect(effort.clicks).toBe(0);
    expectNoErrors(page);
  }, 120_000);

  it("a stale save answers 412, and the page keeps and shows both people's changes", async () => {
    const { page, apiCall } = await ownerPage({ colorScheme: 'dark' });
    const created = await apiCall('POST', '/incidents', { title: 'Search is slow', description: 'p99 at 4 s.' });
    await page.goto(`/default/incidents/${created.name}`);
    await page.getByRole('heading', { level: 1, name: 'Search is slow' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // This person starts editing the description; a colleague renames the incident meanwhile.
    await page.getByRole('button', { name: 'Edit the description' }).click();
    const current = await apiCall('GET', `/incidents/${created.id}`);
    await apiCall('PUT', `/incidents/${created.id}`, { ...current, title: 'Search is slow in eu-west' });
    await page.getByRole('textbox', { name: 'Description' }).fill('p99 at 4 s since the 09:40 deploy.');
    const stale = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith(`/incidents/${created.id}`));
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    expect((await stale).status()).toBe(412);

    // Both changes stand, and the page says whose is whose.
    await page.getByRole('heading', { level: 1, name: 'Search is slow in eu-west' }).waitFor();
    await page.getByRole('region', { name: 'Description' }).getByText('p99 at 4 s since the 09:40 deploy.').waitFor();
    const notice = page.getByRole('status').filter({ hasText: 'Someone else changed this incident meanwhile' });
    await notice.getByText('Title is now “Search is slow in eu-west”').waitFor();
    const saved = await apiCall('GET', `/incidents/${created.id}`);
    expect(saved).toMatchObject({ title: 'Search is slow in eu-west', description: 'p99 at 4 s since the 09:40 deploy.' });
    expect(await axeViolations(page)).toEqual([]);

    // Both change the title: nothing is overwritten until this person chooses.
    await page.getByRole('button', { name: 'Edit the title' }).click();
    await apiCall('PUT', `/incidents/${created.id}`, { ...saved, title: 'Search is slow everywhere' });
    await page.getByRole('textbox', { name: 'Title' }).fill('Search is slow in eu-west and us-east');
    await page.keyboard.press('Enter');
    const both = page.getByRole('table', { name: 'Both changes' });
    await both.getByText('“Search is slow everywhere”').waitFor();
    await both.getByText('“Search is slow in eu-west and us-east”').waitFor();
    await page.getByRole('heading', { level: 1, name: 'Search is slow everywhere' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save mine instead' }).click();
    await page.getByRole('heading', { level: 1, name: 'Search is slow in eu-west and us-east' }).waitFor();
    expect((await apiCall('GET', `/incidents/${created.id}`)).title).toBe('Search is slow in eu-west and us-east');
    // The refused save is shown as the notice, not as an error of the page.
    expectNoErrors(page);
  }, 120_000);

  it('a save lands while the timeline keeps growing: it is rebased until its version holds', async () => {
    const { page, apiCall } = await ownerPage();
    const created = await apiCall('POST', '/incidents', { title: 'Login storm', description: 'Retries from the mobile app.' });
    await page.goto(`/default/incidents/${created.name}`);
    await page.getByRole('heading', { level: 1, name: 'Login storm' }).waitFor();

    // Just before each of the first two saves reaches the API, a bot adds to the timeline: each save's
    // version is stale by then (as when a status change's effects are still being written).
    const statuses: number[] = [];
    let bots = 0;
    await page.route(`**/api/v1/default/incidents/${created.id}`, async (route) => {
      if (route.request().method() === 'PUT' && bots < 2) await apiCall('POST', `/incidents/${created.id}/event`, { description: `Bot note ${++bots}` });
      const response = await route.fetch();
      if (route.request().method() === 'PUT') statuses.push(response.status());
      await route.fulfill({ response });
    });
    const dialog = page.getByRole('dialog', { name: 'Post an update' });
    await page.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'Stable' }).click();
    await dialog.getByRole('button', { name: 'Post update' }).click();
    await page.getByRole('group', { name: 'Status' }).getByRole('button', { name: 'Stable', pressed: true }).waitFor();
    await dialog.waitFor({ state: 'detached' });
    expect(statuses).toEqual([412, 412, 200]);
    const saved = await apiCall('GET', `/incidents/${created.id}`);
    expect(saved.status).toBe('Stable');
    expect(saved.events.map((e: { description: string }) => e.description)).toEqual(expect.arrayContaining(['Bot note 1', 'Bot note 2']));
    expectNoErrors(page);
  }, 120_000);

  it("a case a signal opened leads with the signal's key fields; its title edited in place keeps a colleague's change", async () => {
    const { page, apiCall } = await ownerPage();
    await apiCall('POST', '/signals', {
      name: 'Impossible travel',
      owner: 'secops',
      variant: 'impossible-travel',
      external_id: 'travel-1',
      enabled: true,
      project: { name: 'default' },
    });
    const instance = await apiCall('POST', '/signals/instances', {
      project: { name: 'default' },
      raw: { variant: 'impossible-travel', user: 'ana@corp.example', from: 'Lisbon', to: 'Manila', minutes_apart: 42, geo: { lat: 14.6 } },
    });
    const opened = await apiCall('GET', `/cases/${instance.case.id}`);
    await page.goto(`/default/cases/${opened.name}`);
    const signal = page.getByRole('region', { name: 'Signal', exact: true });
    await signal.getByRole('link', { name: 'Impossible travel' }).waitFor();
    const fields = signal.getByRole('definition');
    // The plain values, in the order the stored document keeps them; the nested one stays in the raw view.
    await expect.poll(async () => (await fields.allTextContents()).sort()).toEqual(['42', 'Lisbon', 'Manila', 'ana@corp.example', 'impossible-travel']);
    // Before the details form: what triage reads first comes first.
    const order = await page.getByRole('region').evaluateAll((regions) => regions.map((r) => r.getAttribute('aria-label')));
    expect(order.indexOf('Signal')).toBeLessThan(order.indexOf('Details'));
    await page.getByText(/^(New|Triage) · \d+ min$/).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    // Every case this signal opens bears its name: the page offers one that tells this one apart.
    await page.getByRole('button', { name: 'Name it “Impossible travel: ana@corp.example”' }).waitFor();
    // The title edited in place while a colleague fills in the description: both are kept.
    await page.getByRole('button', { name: 'Edit the title' }).click();
    await apiCall('PUT', `/cases/${opened.id}`, { ...opened, description: 'Ana is in Lisbon; Manila is a VPN exit.' });
    await page.getByRole('textbox', { name: 'Title' }).first().fill('Impossible travel: ana@corp.example');
    const stale = page.waitForResponse((r) => r.request().method() === 'PUT' && r.url().endsWith(`/cases/${opened.id}`));
    await page.keyboard.press('Enter');
    expect((await stale).status()).toBe(412);
    await page.getByRole('heading', { level: 1, name: 'Impossible travel: ana@corp.example' }).waitFor();
    await page.getByRole('status').getByText('Description is now “Ana is in Lisbon; Manila is a VPN exit.”').waitFor();
    expect(await apiCall('GET', `/cases/${opened.id}`)).toMatchObject({
      title: 'Impossible travel: ana@corp.example',
      description: 'Ana is in Lisbon; Manila is a VPN exit.',
    });
    expect(await axeViolations(page)).toEqual([]);

    // The alert fires again for someone else: a case of its own. Triage answers both at once: false
    // positive, with the reason required, in two clicks.
    const again = await apiCall('POST', '/signals/instances', {
      project: { name: 'default' },
      raw: { variant: 'impossible-travel', user: 'ben@corp.example', from: 'Porto', to: 'Lima', minutes_apart: 30 },
    });
    expect(again.case.id).not.toBe(opened.id);
    const { effort, click, type } = counted(page);
    await click(page.getByRole('button', { name: 'False positive' }));
    const form = page.getByRole('form', { name: 'False positive' });
    expect(await form.getByRole('button', { name: 'Close as false positive' }).isDisabled()).toBe(true);
    await form.getByRole('checkbox', { name: 'Also close the other open cases of this signal' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await type('Both exits are the corporate VPN', 'Enter');
    await page
      .getByRole('status')
      .getByText(/^Closed as a false positive: /)
      .waitFor();
    expect(effort.clicks).toBe(1);
    for (const id of [opened.id, again.case.id]) {
      expect(await apiCall('GET', `/cases/${id}`)).toMatchObject({
        status: 'Closed',
        resolution_reason: 'False Positive',
        resolution: 'Both exits are the corporate VPN',
      });
    }
    expect(await shootJourney(page, 'triage')).toEqual({ light: [], dark: [] });
    expectNoErrors(page);
  }, 120_000);

  it('three cases one signal opened are told apart in the cases table: what sets each alert apart stands beside the shared title', async () => {
    const { page, apiCall } = await ownerPage();
    await apiCall('POST', '/signals', {
      name: 'Mass download',
      owner: 'secops',
      variant: 'mass-download',
      external_id: 'download-1',
      enabled: true,
      project: { name: 'default' },
    });
    const users = ['cleo@corp.example', 'dev@corp.example', 'eli@corp.example'];
    const cases: number[] = [];
    for (const user of users) {
      const instance = await apiCall('POST', '/signals/instances', { project: { name: 'default' }, raw: { variant: 'mass-download', user, files: 900 } });
      cases.push(instance.case.id);
    }
    expect(new Set(cases).size).toBe(3);
    // The cases keep the signal's name, as Dispatch names them.
    for (const id of cases) expect((await apiCall('GET', `/cases/${id}`)).title).toBe('Mass download');
    await page.goto('/default/cases');
    const table = page.getByRole('table', { name: 'Cases' });
    const links = table.getByRole('link', { name: /^Mass download/ });
    await expect.poll(async () => (await links.allTextContents()).sort(), { timeout: 20_000 }).toEqual(users.map((u) => `Mass download · ${u}`));
    // A title no other row shares stays as it is.
    expect(await table.getByRole('link', { name: /^Impossible travel/ }).allTextContents()).not.toContainEqual(expect.stringContaining(' · '));
    // Told apart on screen, not only in the markup: at 1280 px each shows whole, with no sideways scrolling.
    await page.setViewportSize({ width: 1280, height: 800 });
    // What sets each apart lies within its link's box (a clamped link cuts off what runs past its
    // first line) and within the screen.
    const shown = () =>
      links.evaluateAll((as) =>
        as.map((a) => {
          const part = a.querySelector('span')?.getBoundingClientRect();
          const box = a.getBoundingClientRect();
          return !!part && part.bottom <= box.bottom + 0.5 && part.right <= Math.min(box.right, window.innerWidth) + 0.5;
        }),
      );
    await expect.poll(shown).toEqual([true, true, true]);
    const sideways = await page.evaluate(() =>
      [document.scrollingElement!, ...document.querySelectorAll('table')].map((e) => {
        const box = e instanceof HTMLTableElement ? e.parentElement! : e;
        return box.scrollWidth - box.clientWidth;
      }),
    );
    expect(sideways.filter((extra) => extra > 0)).toEqual([]);
    expect(await shootJourney(page, 'triage-cases')).toEqual({ light: [], dark: [] });
    expectNoErrors(page);
  }, 120_000);
});
