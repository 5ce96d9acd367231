// The files of an incident in the web UI: a file uploaded through the page is listed with the type
// the server found, and downloads back byte for byte; the incident's meeting link and groups show.
import { readFile } from 'node:fs/promises';
import { expect, it } from 'vitest';
import { describeUi, expectNoErrors, registerInBrowser, tokenOf, useUiServer } from './browser.ts';

describeUi('web UI: files of an incident', () => {
  const ui = useUiServer();

  it('uploads a file and downloads it unchanged', async () => {
    const page = await ui.page();
    await registerInBrowser(page, 'owner@example.com');
    const token = await tokenOf(page);
    const res = await fetch(`${ui.origin}/api/v1/default/incidents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ title: 'Disk full', description: 'The database disk filled up.' }),
    });
    const incident = await res.json();

    await page.goto(`/default/incidents/${incident.name}?tab=files`);
    await page.getByRole('heading', { name: 'Files' }).waitFor();
    // The meeting and the groups, made by the server's jobs shortly after the incident.
    const room = page.getByRole('link', { name: "join the incident's room" });
    await room.waitFor({ timeout: 30_000 });
    expect(await room.getAttribute('href')).toMatch(/^https:\/\/meet\.jit\.si\/[a-z0-9-]+$/);
    await page.getByRole('list', { name: 'Groups' }).getByText(`${incident.name.toLowerCase()}@groups.muster.invalid`).waitFor({ timeout: 30_000 });
    const content = 'df -h\n/dev/sda1  100G  100G  0 100% /var/lib/postgresql\n';
    await page.locator('input[type="file"]').setInputFiles({ name: 'df.txt', mimeType: 'text/html', buffer: Buffer.from(content) });
    const files = page.getByRole('table', { name: 'Files' });
    await files.getByRole('button', { name: 'df.txt', exact: true }).waitFor();
    // The type is what the server found in the bytes, not what the browser said.
    await files.getByText('text/plain; charset=utf-8').waitFor();

    const [download] = await Promise.all([page.waitForEvent('download'), files.getByRole('button', { name: 'df.txt', exact: true }).click()]);
    expect(download.suggestedFilename()).toBe('df.txt');
    expect(await readFile((await download.path())!, 'utf8')).toBe(content);

    // A page, which the server refuses, is not stored.
    await page.locator('input[type="file"]').setInputFiles({ name: 'x.html', mimeType: 'text/html', buffer: Buffer.from('<html><script>1</script></html>') });
    await page.getByText('Files of this type are not accepted').waitFor();
    expect(await files.getByRole('row').count()).toBe(2);
    expectNoErrors(page);
  });
});
