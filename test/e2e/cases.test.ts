import { expect, it } from 'vitest';
import { axeViolations, describeUi, expectNoErrors, registerInBrowser, tokenOf, useUiServer } from './browser.ts';

describeUi('web UI: cases', () => {
  const ui = useUiServer();

  it('creates a case through the form, triages it, escalates it and follows the link to the incident', async () => {
    const page = await ui.page();
    await registerInBrowser(page, 'owner@example.com');
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Cases' }).click();
    await page.getByRole('heading', { level: 1, name: 'Cases' }).waitFor();
    await page.getByRole('button', { name: 'New case' }).click();
    const dialog = page.getByRole('dialog', { name: 'New case' });
    // The form checks the body against CaseCreate before sending it.
    await dialog.getByRole('button', { name: 'Create case' }).click();
    await dialog.getByText('Enter a title').waitFor();
    await dialog.getByLabel('Title').fill('Laptop stolen at the station');
    await dialog.getByLabel('Description').fill('Left on a bench for a minute.');
    await dialog.getByRole('button', { name: 'Create case' }).click();
    await page.waitForURL('**/default/cases/muster-default-default-1');
    await page.getByRole('heading', { level: 1, name: 'Laptop stolen at the station' }).waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Triage', exact: true }).click();
    await page.getByText('Case status changed from New to Triage').waitFor();
    expect(await page.getByRole('button', { name: 'Move back…' }).isVisible()).toBe(true);

    await page.getByRole('button', { name: 'Escalate', exact: true }).click();
    const escalate = page.getByRole('dialog', { name: 'Escalate to an incident' });
    expect(await escalate.getByLabel('Incident title').inputValue()).toBe('Laptop stolen at the station');
    await escalate.getByRole('button', { name: 'Escalate' }).click();
    const link = page.getByRole('status', { name: 'Escalated' }).getByRole('link');
    await link.first().waitFor();
    await page.getByText('Case status changed from Triage to Escalated').waitFor();
    const name = await link.first().textContent();
    expect(name).toMatch(/\S/);
    // The incident is linked on the case too.
    await page.getByRole('region', { name: 'Links' }).getByRole('link', { name: name! }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await link.first().click();
    await page.waitForURL(`**/default/incidents/${encodeURIComponent(name!)}`);
    expectNoErrors(page);
  });

  it('filters the table from the URL, and keeps it live', async () => {
    const page = await ui.page();
    await registerInBrowser(page, 'second@example.com');
    const token = await tokenOf(page);
    const post = (body: object) =>
      fetch(`${ui.origin}/api/v1/default/cases`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    await post({ title: 'Phishing mail to finance', description: 'Reported by two people.', case_priority: { name: 'High' } });
    await post({ title: 'Tailgating at the side door', description: 'Seen on camera.', status: 'Stable' });

    await page.goto('/default/cases?priority=High');
    const table = page.getByRole('table', { name: 'Cases' });
    await table.getByText('Phishing mail to finance').waitFor();
    expect(await table.getByText('Tailgating at the side door').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);

    await page.goto('/default/cases?status=Stable');
    await table.getByText('Tailgating at the side door').waitFor();
    expect(await table.getByText('Phishing mail to finance').count()).toBe(0);

    // A filter chosen on the page goes into the URL.
    await page.goto('/default/cases');
    await table.getByText('Phishing mail to finance').waitFor();
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Stable' }).click();
    await page.waitForURL('**/default/cases?status=Stable');
    await page.keyboard.press('Escape');
    await table.getByText('Phishing mail to finance').waitFor({ state: 'detached' });
    await table.getByText('Tailgating at the side door').waitFor();

    // Live: a case made elsewhere shows up without a reload.
    await page.goto('/default/cases');
    await table.getByText('Phishing mail to finance').waitFor();
    await post({ title: 'Badge cloned at the front desk', description: 'Seen on camera.' });
    await table.getByText('Badge cloned at the front desk').waitFor({ timeout: 15_000 });

    // Bulk: the selected rows change status.
    await table
      .getByRole('row', { name: /Tailgating at the side door/ })
      .getByRole('checkbox')
      .check();
    await page.getByRole('combobox', { name: 'New status for the selected cases' }).click();
    await page.getByRole('option', { name: 'Closed' }).click();
    await page.getByRole('button', { name: 'Apply to 1' }).click();
    await table
      .getByRole('row', { name: /Tailgating at the side door/ })
      .getByText('Closed')
      .waitFor();

    // A Member who takes no part in someone else's case may read it, not move it: the API says why.
    // The title is the row's link; it leads to the case by its name.
    const href = await table
      .getByRole('row', { name: /Phishing mail to finance/ })
      .getByRole('link', { name: 'Phishing mail to finance' })
      .getAttribute('href');
    const mine = decodeURIComponent(href!.split('/').at(-1)!);
    const others = await fetch(`${ui.origin}/api/v1/default/cases?itemsPerPage=-1`, { headers: { authorization: `Bearer ${token}` } }).then((r) => r.json());
    const theirs = others.items.find((c: { title: string }) => c.title === 'Laptop stolen at the station');
    if (theirs) {
      await page.goto(`/default/cases/${theirs.name}`);
      await page.getByRole('button', { name: 'Mark stable' }).click();
      await page.getByRole('alert').filter({ hasText: 'The status did not change' }).waitFor();
    }
    // A numeric id works as well as a name.
    const id = others.items.find((c: { name: string }) => c.name === mine).id;
    await page.goto(`/default/cases/${id}`);
    await page.getByRole('heading', { level: 1, name: 'Phishing mail to finance' }).waitFor();
    expectNoErrors(page);
  });
});
