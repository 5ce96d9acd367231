// The post-incident review in the browser: an incident moved to Stable gets its review, which a
// responder opens from its link, edits, saves and exports as Markdown and PDF.
import { expect, it } from 'vitest';
import { describeUi, expectNoErrors, registerInBrowser, tokenOf, useUiServer } from './browser.ts';
import { shootJourney } from './journey-shots.ts';

describeUi('web UI: documents', () => {
  const ui = useUiServer();

  it('edits the review of an incident and exports it', async () => {
    const page = await ui.page();
    await registerInBrowser(page, 'owner@example.com');
    const token = await tokenOf(page);
    const headers = { authorization: `Bearer ${token}`, 'content-type': 'application/json' };
    const created = await (
      await fetch(`${ui.origin}/api/v1/default/incidents`, {
        method: 'POST',
        headers,
        body: JSON.stringify({ title: 'Harbour crane stuck', description: 'Cargo waits.' }),
      })
    ).json();
    const current = await (await fetch(`${ui.origin}/api/v1/default/incidents/${created.id}`, { headers })).json();
    const stable = await fetch(`${ui.origin}/api/v1/default/incidents/${created.id}`, {
      method: 'PUT',
      headers,
      body: JSON.stringify({ ...current, status: 'Stable' }),
    });
    expect(stable.status).toBe(200);

    await page.goto(`/default/incidents/${encodeURIComponent(created.name)}/documents/review`);
    await page.getByRole('heading', { level: 1, name: `Post-incident review: ${created.name}` }).waitFor();
    const text = page.getByRole('textbox', { name: 'Text (Markdown)' });
    expect(await text.inputValue()).toContain('# Post-incident review: Harbour crane stuck');
    await text.fill(`${await text.inputValue()}\nThe crane's brake was worn.\n`);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByText('Saved (version 2).').waitFor();

    const markdown = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export Markdown' }).click();
    const md = await markdown;
    expect(md.suggestedFilename()).toMatch(/\.md$/);
    const pdf = page.waitForEvent('download');
    await page.getByRole('button', { name: 'Export PDF' }).click();
    expect((await pdf).suggestedFilename()).toMatch(/\.pdf$/);

    const after = await (await fetch(`${ui.origin}/api/v1/default/incidents/${created.id}`, { headers })).json();
    const review = after.documents.find((d: { resource_type: string }) => d.resource_type === 'dispatch-incident-review-document');
    const saved = await (await fetch(`${ui.origin}/api/v1/default/documents/${review.id}/content`, { headers })).json();
    expect(saved.content).toContain("The crane's brake was worn.");
    expect(await shootJourney(page, 'review')).toEqual({ light: [], dark: [] });
    expectNoErrors(page);
  });
});
