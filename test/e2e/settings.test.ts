import type { Page } from 'playwright-core';
import { expect, it } from 'vitest';
import { axeViolations, describeUi, expectNoErrors, personPages, useUiServer } from './browser.ts';
import { shootJourney } from './journey-shots.ts';

/** The settings section's table, once it shows `text`. */
const rowOf = (page: Page, table: string, text: string) => page.getByRole('table', { name: table }).getByRole('row').filter({ hasText: text });

/**
 * Opens the settings section `key` the way a person does, from the list of sections: the app
 * changes screens without loading the page again.
 */
async function openSection(page: Page, key: string) {
  const link = page.getByRole('navigation', { name: 'Settings' }).locator(`a[href$="/settings/${key}"]`);
  await link.click();
  // The list marks the section shown in the same render as the section itself.
  await link.and(page.locator('[aria-current="page"]')).waitFor();
}

/** Opens the settings area from the header's list of sections, on its first section. */
async function openSettings(page: Page) {
  await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Settings' }).click();
  await page.waitForURL('**/default/settings/projects');
}

describeUi('web UI: settings', () => {
  const ui = useUiServer();
  // The first person registered is the organization's Owner.
  const ownerPage = personPages(ui, 'owner@example.com');

  it('opens on the projects section; an incident priority is created through its form and edited', async () => {
    const { page } = await ownerPage();

    // The settings area opens on its first section, listed beside the others.
    await openSettings(page);
    await page.getByRole('heading', { level: 1, name: 'Projects' }).waitFor();
    await rowOf(page, 'Projects', 'default').first().waitFor();
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('navigation', { name: 'Settings' }).getByRole('link', { name: 'Priorities' }).first().click();
    await page.getByRole('heading', { level: 1, name: 'Incident priorities' }).waitFor();
    await rowOf(page, 'Incident priorities', 'Low').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await page.getByRole('link', { name: 'New incident priority' }).click();
    const form = page.getByRole('dialog', { name: 'New incident priority' });
    // Nothing is sent while the shape refuses it.
    await form.getByRole('button', { name: 'Create incident priority' }).click();
    await form.getByText('Required').waitFor();
    await form.getByRole('textbox', { name: /^Name/ }).fill('Critical path');
    await form.getByRole('textbox', { name: 'Description' }).fill('Customers cannot pay');
    await form.getByRole('textbox', { name: 'Order in lists' }).fill('9');
    await form.getByRole('button', { name: 'Create incident priority' }).click();
    await form.waitFor({ state: 'detached' });
    await rowOf(page, 'Incident priorities', 'Customers cannot pay').waitFor();

    await page.getByRole('link', { name: 'Edit Critical path' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit incident priority' });
    await edit.getByRole('textbox', { name: 'Description' }).fill('Payments are down');
    await edit.getByRole('switch', { name: 'Enabled' }).uncheck();
    await edit.getByRole('button', { name: 'Save changes' }).click();
    await edit.waitFor({ state: 'detached' });
    const row = rowOf(page, 'Incident priorities', 'Payments are down');
    await row.waitFor();
    expect(await row.textContent()).toMatch(/Critical path.*Payments are down.*9No.*No/);
    // The API deletes no priority (incidents keep pointing at them): the table offers no delete.
    expect(await page.getByRole('button', { name: 'Delete Critical path' }).count()).toBe(0);
    expectNoErrors(page);
  });

  it('creates a tag type, then a tag of it, then deletes the tag after a confirmation', async () => {
    const { page } = await ownerPage();
    await openSettings(page);
    await openSection(page, 'tag-types');
    await page.getByRole('link', { name: 'New tag type' }).click();
    const tagType = page.getByRole('dialog', { name: 'New tag type' });
    await tagType.getByRole('textbox', { name: /^Name/ }).fill('Region');
    await tagType.getByRole('switch', { name: /Exclusive/ }).check();
    await tagType.getByRole('button', { name: 'Create tag type' }).click();
    await tagType.waitFor({ state: 'detached' });
    await rowOf(page, 'Tag types', 'Region').waitFor();

    await openSection(page, 'tags');
    await page.getByRole('link', { name: 'New tag' }).click();
    const tag = page.getByRole('dialog', { name: 'New tag' });
    await tag.getByRole('combobox', { name: /^Tag type/ }).click();
    await page.getByRole('option', { name: 'Region' }).click();
    await tag.getByRole('textbox', { name: /^Name/ }).fill('eu-west-1');
    await tag.getByRole('button', { name: 'Create tag' }).click();
    await tag.waitFor({ state: 'detached' });
    await rowOf(page, 'Tags', 'eu-west-1').waitFor();
    expect(await rowOf(page, 'Tags', 'eu-west-1').textContent()).toContain('Region');
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('button', { name: 'Delete eu-west-1' }).click();
    await page.getByRole('dialog', { name: 'Delete the tag?' }).getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No tags yet').waitFor();
    expectNoErrors(page);
  });

  it('sets registration by invitation only, which the API holds after a reload, and shows an invitation link once', async () => {
    const { page, apiCall } = await ownerPage();
    await openSettings(page);
    await openSection(page, 'registration');
    await page.getByRole('heading', { level: 1, name: 'Registration and invitations' }).waitFor();
    await page.getByRole('radio', { name: /By invitation only/ }).check();
    await page.getByRole('button', { name: 'Save policy' }).click();
    await page.getByText('Saved: By invitation only.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expect(await apiCall('GET', '/registration')).toEqual({ policy: 'invitation', domains: [] });
    await page.reload();
    expect(await page.getByRole('radio', { name: /By invitation only/ }).isChecked()).toBe(true);

    // An invitation's link is shown once.
    await page.getByRole('button', { name: 'Invite' }).click();
    await page.getByText(/auth\/register\?invitation=/).waitFor();
    await page.getByRole('table', { name: 'Open invitations' }).getByText('Anyone with the link').waitFor();
    expectNoErrors(page);
  });

  it('lists the plugins and the users', async () => {
    const { page } = await ownerPage();
    await openSettings(page);
    await openSection(page, 'plugins');
    await page.getByRole('heading', { level: 1, name: 'Plugins' }).waitFor();
    await page.getByRole('table', { name: 'Plugin instances' }).getByRole('row').nth(1).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await openSection(page, 'users');
    await rowOf(page, 'Users', 'owner@example.com').waitFor();
    expect(await shootJourney(page, 'administer')).toEqual({ light: [], dark: [] });
    expectNoErrors(page);
  });

  it('shows a Member read-only tables, and the API refusal when they try a change', async () => {
    // The policy is invitation-only from the test above: the Owner invites a Member.
    const { apiCall } = await ownerPage();
    const invitation = await apiCall('POST', '/invitations', { role: 'Member' });
    const page = await ui.page();
    await page.goto(`/default/auth/register?invitation=${encodeURIComponent(invitation.token)}`);
    await page.getByLabel('Email').fill('member@example.com');
    await page.getByRole('textbox', { name: 'Password' }).fill('a long enough passphrase');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL('**/default/incidents**');

    await openSettings(page);
    await openSection(page, 'incident-priorities');
    await rowOf(page, 'Incident priorities', 'Low').waitFor();
    await page.getByText('Only Admins and Owners change these.').waitFor();
    expect(await page.getByRole('link', { name: 'New incident priority' }).count()).toBe(0);

    // A form opened by its link: the API refuses, and says why.
    await page.goto('/default/settings/incident-priorities?new=1');
    const form = page.getByRole('dialog', { name: 'New incident priority' });
    await form.getByRole('textbox', { name: /^Name/ }).fill('Not allowed');
    await form.getByRole('button', { name: 'Create incident priority' }).click();
    await form.getByRole('alert').filter({ hasText: 'Could not save the incident priority' }).waitFor();
    await form.getByRole('button', { name: 'Cancel' }).click();
    await form.waitFor({ state: 'detached' });

    // Only an Owner changes a role.
    await openSection(page, 'users');
    await rowOf(page, 'Users', 'owner@example.com').waitFor();
    await page.getByRole('combobox', { name: 'Role of owner@example.com' }).click();
    await page.getByRole('option', { name: 'Member' }).click();
    await page.getByRole('alert').filter({ hasText: 'The role was not changed' }).waitFor();
    expectNoErrors(page);
  });

  it('reads every record section and opens its form', async () => {
    const { page } = await ownerPage();
    await openSettings(page);
    const declared = [
      'projects',
      'incident-priorities',
      'incident-severities',
      'incident-types',
      'incident-cost-types',
      'case-priorities',
      'case-severities',
      'case-types',
      'tag-types',
      'tags',
      'individuals',
      'teams',
      'services',
      'notifications',
      'workflows',
    ];
    for (const key of declared) {
      await openSection(page, key);
      const title = (await page.getByRole('heading', { level: 1 }).textContent()) ?? '';
      await page.getByRole('table', { name: title }).waitFor();
      await page.getByRole('link', { name: /^New / }).click();
      const dialog = page.getByRole('dialog');
      await dialog.getByRole('button', { name: /^Create / }).waitFor();
      await dialog.getByRole('button', { name: 'Cancel' }).click();
      await dialog.waitFor({ state: 'detached' });
      expect(await page.getByRole('alert').count(), key).toBe(0);
    }
    expectNoErrors(page);
  });

  it('edits a contact: its search filters go back with the edit', async () => {
    const { page } = await ownerPage();
    await openSettings(page);
    await openSection(page, 'individuals');
    await page.getByRole('link', { name: 'New individual' }).click();
    const contact = page.getByRole('dialog', { name: 'New individual' });
    await contact.getByRole('textbox', { name: /^Email/ }).fill('alex@example.com');
    await contact.getByRole('textbox', { name: /^Name/ }).fill('Alex');
    await contact.getByRole('button', { name: 'Create individual' }).click();
    await contact.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Edit Alex' }).click();
    const editContact = page.getByRole('dialog', { name: 'Edit individual' });
    await editContact.getByRole('textbox', { name: /^Title/ }).fill('Site reliability');
    await editContact.getByRole('button', { name: 'Save changes' }).click();
    await editContact.waitFor({ state: 'detached' });
    await rowOf(page, 'Individuals', 'Site reliability').waitFor();
    expectNoErrors(page);
  });

  it('configures a plugin whose secret comes back masked', async () => {
    const { page } = await ownerPage();
    await openSettings(page);
    await openSection(page, 'plugins');
    await page.getByRole('link', { name: 'Configure Muster Plugin - Webhook in default' }).click();
    const form = page.getByRole('dialog', { name: 'Configure the plugin' });
    await form.getByLabel(/^Secret/).fill('a shared secret');
    await form.getByRole('button', { name: 'Save' }).click();
    await form.waitFor({ state: 'detached' });
    await page.getByRole('link', { name: 'Configure Muster Plugin - Webhook in default' }).click();
    const again = page.getByRole('dialog', { name: 'Configure the plugin' });
    expect(await again.getByLabel(/^Secret/).inputValue()).toBe('**********');
    await again.getByText('Stored; leave as is to keep it.', { exact: false }).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    expectNoErrors(page);
  });
});
