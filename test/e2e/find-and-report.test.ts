// Two journeys counted in clicks and keys: finding last week's incident by a word and opening the
// case escalated into it (search results say each hit's status and date, the overview links the
// case), and reading this month's incidents and their mean time to stable on the dashboard, then
// opening the list a count counts.
import { expect, it } from 'vitest';
import { axeViolations, counted, describeUi, expectNoErrors, personPages, useUiServer } from './browser.ts';
import { shootJourney } from './journey-shots.ts';

const DAY = 86_400_000;
const ago = (days: number) => new Date(Date.now() - days * DAY).toISOString();

describeUi('web UI: finding an incident, and the dashboards', () => {
  const ui = useUiServer();
  const ownerPage = personPages(ui, 'lead@example.com');

  it("find: last week's incident by a word, then the case escalated into it, in 2 clicks", async () => {
    const { page, apiCall } = await ownerPage();
    // The case, escalated into an incident that was reported last week; a newer incident shares the word.
    const opened = await apiCall('POST', '/cases', { title: 'Walrus VPN logins from two countries', description: 'Seen by the SIEM.' });
    const escalated = await apiCall('PUT', `/cases/${opened.id}/escalate`, { title: 'Walrus VPN accounts taken over', description: 'From the case.' });
    const lastWeek = await apiCall('GET', `/incidents/${escalated.id}`);
    await apiCall('PUT', `/incidents/${lastWeek.id}`, { ...lastWeek, reported_at: ago(8), status: 'Closed', resolution: 'Passwords reset.' });
    await apiCall('POST', '/incidents', { title: 'Walrus VPN slow for everyone', description: 'Latency above 2 s.' });
    await page.getByRole('heading', { level: 1, name: 'Incidents' }).waitFor();

    const { effort, click, type, press } = counted(page);
    await press('/');
    await type('walrus', 'Enter');
    await page.waitForURL('**/default/search?q=walrus');
    const incidents = page.getByRole('region', { name: 'Incidents' });
    const hits = incidents.getByRole('listitem');
    await incidents.getByRole('link', { name: 'Walrus VPN slow for everyone' }).waitFor();
    expect(await hits.count()).toBe(2);
    // Each hit says its status and when it was reported: the two alike titles are told apart.
    const old = hits.filter({ hasText: 'Walrus VPN accounts taken over' });
    await old.getByText('Closed', { exact: true }).waitFor();
    expect(await old.locator('time').getAttribute('datetime')).toBe((await apiCall('GET', `/incidents/${lastWeek.id}`)).reported_at);
    await hits.filter({ hasText: 'Walrus VPN slow for everyone' }).getByText('Active', { exact: true }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await click(old.getByRole('link', { name: 'Walrus VPN accounts taken over' }));
    await page.getByRole('heading', { level: 1, name: 'Walrus VPN accounts taken over' }).waitFor();
    // The case it was escalated from is on the overview, not a tab away.
    await click(page.getByRole('link', { name: /^CASE-\d+$/ }));
    await page.getByRole('heading', { level: 1, name: 'Walrus VPN logins from two countries' }).waitFor();
    expect(effort).toEqual({ clicks: 2, keys: 8 });
    console.info(`find journey: ${effort.clicks} clicks, ${effort.keys} keys`);
    expect(await shootJourney(page, 'find')).toEqual({ light: [], dark: [] });
    expectNoErrors(page);
  }, 180_000);

  it('dashboards: the incidents of this month and their mean time to stable in 2 clicks, a count opening the list it counts', async () => {
    const { page, apiCall } = await ownerPage({ colorScheme: 'dark' });
    // This month: two incidents gone Stable; an older one outside the month.
    const monthStart = `${new Date().toISOString().slice(0, 8)}01T00:00:00`;
    const reported = new Date(Math.max(Date.parse(`${monthStart}Z`) + 60_000, Date.now() - 5 * 3_600_000)).toISOString();
    for (const title of ['Otter queue backlog', 'Otter cache misses']) {
      const made = await apiCall('POST', '/incidents', { title, description: title });
      await apiCall('PUT', `/incidents/${made.id}`, { ...(await apiCall('GET', `/incidents/${made.id}`)), status: 'Stable', reported_at: reported });
    }
    const older = await apiCall('POST', '/incidents', { title: 'Otter outage of long ago', description: 'Old.' });
    await apiCall('PUT', `/incidents/${older.id}`, {
      ...(await apiCall('GET', `/incidents/${older.id}`)),
      reported_at: new Date(Date.parse(`${monthStart}Z`) - 40 * DAY).toISOString(),
    });
    // What the counts must be, whatever else this server holds.
    const all = (await apiCall('GET', '/incidents?itemsPerPage=-1')).items as { reported_at: string; status: string }[];
    const thisMonth = String(all.filter((i) => i.reported_at >= monthStart).length);
    expect(all.filter((i) => i.reported_at >= monthStart && i.status === 'Stable')).toHaveLength(2);
    await page.getByRole('heading', { level: 1, name: 'Incidents' }).waitFor();

    const { effort, click } = counted(page);
    await click(page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Dashboards' }));
    await page.getByRole('heading', { level: 1, name: 'Incident dashboard' }).waitFor();
    await click(page.getByText('This month', { exact: true }));
    await page.waitForURL('**/dashboards/incidents?window=month');
    const summary = page.getByRole('region', { name: 'Summary' });
    const stat = (label: string) => summary.locator(`[data-stat="${label}"] dd`).first();
    await expect.poll(() => stat('Incidents').textContent(), { timeout: 20_000 }).toBe(thisMonth);
    const mean = await stat('Time to stable, mean').textContent();
    expect(mean).not.toBe('-');
    expect(effort).toEqual({ clicks: 2, keys: 0 });
    console.info(`dashboards journey: ${effort.clicks} clicks, ${effort.keys} keys (mean time to stable ${mean})`);
    expect(await shootJourney(page, 'dashboards')).toEqual({ light: [], dark: [] });

    // Typed dates: what is typed stays while it is not yet a date.
    await page.getByText('Custom', { exact: true }).click();
    const from = page.getByRole('textbox', { name: 'From' });
    await from.fill('');
    await from.pressSequentially('2000-01');
    expect(await from.inputValue()).toBe('2000-01');
    await from.pressSequentially('-01');
    await page.waitForURL(/window=custom&from=2000-01-01/);
    await expect.poll(() => stat('Incidents').textContent(), { timeout: 20_000 }).toBe(String(all.length));
    expect(await from.inputValue()).toBe('2000-01-01');

    // A count opens the list it counts, filtered the same way.
    await page.getByText('This month', { exact: true }).click();
    await expect.poll(() => stat('Incidents').textContent(), { timeout: 20_000 }).toBe(thisMonth);
    await page.getByRole('link', { name: '2 Stable: open the list' }).click();
    await page.waitForURL(/\/default\/incidents\?.*status=Stable/);
    const rows = page.getByRole('table', { name: 'Incidents' }).locator('tbody tr');
    await expect
      .poll(async () => (await rows.allTextContents()).map((t) => /Otter [a-z ]+/.exec(t)?.[0].trim()).sort(), { timeout: 20_000 })
      .toEqual(['Otter cache misses', 'Otter queue backlog']);
    expectNoErrors(page);
  }, 180_000);
});
