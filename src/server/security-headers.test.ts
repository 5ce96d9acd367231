// The web UI and the API answer with the headers a security review expects: before, none of them.
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { securityHeaders } from './security-headers.ts';
import { BUILT_IN_UI } from './static-files.ts';

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp({ staticDir: BUILT_IN_UI });
});
afterAll(() => t.close());

describe('security headers', () => {
  it('the web UI runs only its own scripts and cannot be framed', async () => {
    const page = await t.app.inject({ method: 'GET', url: '/default/incidents' });
    expect(page.statusCode).toBe(200);
    const csp = String(page.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toMatch(/script-src[^;]*'unsafe-inline'/);
    // The one inline script of index.html is allowed by its hash, and nothing else inline.
    const html = readFileSync(join(BUILT_IN_UI, 'index.html'), 'utf8');
    const inline = /<script>([\s\S]*?)<\/script>/.exec(html)![1];
    expect(csp).toContain(`'sha256-${createHash('sha256').update(inline).digest('base64')}'`);
    expect(page.headers['x-frame-options']).toBe('DENY');
    expect(page.headers['x-content-type-options']).toBe('nosniff');
    expect(page.headers['referrer-policy']).toBe('same-origin');
  });

  it('API answers carry them too', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/v1/healthcheck' });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
  });

  it("an operator's own policy replaces Muster's", () => {
    const headers = securityHeaders({ policy: "default-src 'self' https://fonts.example" });
    expect(headers['content-security-policy']).toBe("default-src 'self' https://fonts.example");
    expect(headers['x-frame-options']).toBe('DENY');
  });
});
