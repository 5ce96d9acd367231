// A built web UI served from MUSTER_STATIC_DIR, through the application's HTTP handling: files and
// the single-page app's fallback, caching headers, what is refused, and /api/ left as it was.
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app/app.ts';
import { call, createTestApp, testSettings, type TestApp } from '../../test/helpers.ts';
import { IMMUTABLE, isHashed, REVALIDATE, StaticDirError } from './static-files.ts';

let t: TestApp;
let plain: TestApp;
let top: string;
let dir: string;

const INDEX = '<!doctype html><html><body><div id="app"></div><script type="module" src="/assets/index-BXk3Lm9a.js"></script></body></html>';
const SCRIPT = 'console.log("dispatch")';

beforeAll(async () => {
  top = mkdtempSync(join(tmpdir(), 'muster-static-'));
  dir = join(top, 'dist');
  mkdirSync(join(dir, 'assets'), { recursive: true });
  writeFileSync(join(dir, 'index.html'), INDEX);
  writeFileSync(join(dir, 'assets', 'index-BXk3Lm9a.js'), SCRIPT);
  writeFileSync(join(dir, 'assets', 'index-D0c2f1Aa.css'), 'body{}');
  writeFileSync(join(dir, 'favicon.ico'), Buffer.from([0, 0, 1, 0]));
  writeFileSync(join(dir, 'sw.js'), 'self.skipWaiting()');
  writeFileSync(join(dir, '.env'), 'SECRET=in-the-build-dir');
  writeFileSync(join(top, 'secret.txt'), 'outside the static directory');
  symlinkSync(join(top, 'secret.txt'), join(dir, 'linked.txt'));
  t = await createTestApp({ staticDir: dir });
  plain = await createTestApp();
});
afterAll(async () => {
  await t?.close();
  await plain?.close();
  rmSync(top, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}, app = t) => app.app.inject({ method: 'GET', url, headers });

describe('a built web UI (MUSTER_STATIC_DIR)', () => {
  it('serves index.html at / and for every path the app routes in the browser, never cached unchecked', async () => {
    for (const url of ['/', '/default/incidents', '/default/cases/muster-default-3?tab=details', '/default/auth/login', '/index.html']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.body).toBe(INDEX);
      expect(res.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', 'cache-control': REVALIDATE, 'x-content-type-options': 'nosniff' });
      expect(res.headers.etag).toMatch(/^W\/"/);
    }
  });

  it('serves files with their content type; content-hashed assets are immutable for a year, the rest revalidated', async () => {
    const js = await get('/assets/index-BXk3Lm9a.js');
    expect(js).toMatchObject({ statusCode: 200, body: SCRIPT });
    expect(js.headers).toMatchObject({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': IMMUTABLE, 'content-length': String(SCRIPT.length) });
    expect((await get('/assets/index-D0c2f1Aa.css')).headers).toMatchObject({ 'content-type': 'text/css; charset=utf-8', 'cache-control': IMMUTABLE });
    expect((await get('/favicon.ico')).headers).toMatchObject({ 'content-type': 'image/x-icon', 'cache-control': REVALIDATE });
    // The service worker must be revalidated, or a browser keeps the old UI.
    expect((await get('/sw.js')).headers).toMatchObject({ 'content-type': 'text/javascript; charset=utf-8', 'cache-control': REVALIDATE });
    expect(isHashed('index-BXk3Lm9a.js')).toBe(true);
    expect(isHashed('vendor.3f9a1c2b.js')).toBe(true);
    expect(isHashed('my-component.js')).toBe(false);
    expect(isHashed('registerSW.js')).toBe(false);
  });

  it('answers 304 while the ETag or Last-Modified still holds, and HEAD with headers only', async () => {
    const first = await get('/');
    expect((await get('/', { 'if-none-match': String(first.headers.etag) })).statusCode).toBe(304);
    expect((await get('/', { 'if-none-match': 'W/"other"' })).statusCode).toBe(200);
    expect((await get('/', { 'if-modified-since': String(first.headers['last-modified']) })).statusCode).toBe(304);
    const head = await t.app.inject({ method: 'HEAD', url: '/assets/index-BXk3Lm9a.js' });
    expect(head.statusCode).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe('text/javascript; charset=utf-8');
  });

  it('answers 404, not index.html, for a missing asset', async () => {
    const res = await get('/assets/index-Zz9Yy8Xx.js');
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ detail: 'Not Found' });
  });

  it('refuses paths out of the directory, dotfiles, NUL bytes and links that lead outside', async () => {
    for (const url of [
      '/..%2Fsecret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/assets/..%5C..%5Csecret.txt',
      '/%2e%2e/secret.txt',
      '/.env',
      '/assets/%2eenv',
      '/index.html%00.js',
      '/linked.txt',
    ]) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.body, url).not.toContain('outside the static directory');
      expect(res.body, url).not.toContain('SECRET');
    }
  });

  it('leaves /api/ as it was: routes answer, unknown API paths get the API 404 and wrong methods 405', async () => {
    expect(await call(t.app, 'GET', '/healthcheck')).toMatchObject({ status: 200, body: { status: 'ok' } });
    for (const url of ['/api/v1/no-such-thing', '/api/v1/default/no-such-list', '/api/other', '/api']) {
      const res = await get(url);
      expect(res.statusCode, url).toBe(404);
      expect(res.json(), url).toEqual({ detail: 'Not Found' });
    }
    const wrong = await t.app.inject({ method: 'DELETE', url: '/api/v1/healthcheck' });
    expect(wrong.statusCode).toBe(405);
    // Only GET and HEAD reach the files.
    const post = await t.app.inject({ method: 'POST', url: '/default/incidents', payload: {} });
    expect(post.statusCode).toBe(404);
    expect(post.json()).toEqual({ detail: 'Not Found' });
  });

  it('is off without the setting, and refuses a directory with no index.html', async () => {
    expect((await get('/', {}, plain)).statusCode).toBe(404);
    await expect(buildApp({ settings: testSettings({ staticDir: join(dir, 'assets') }), database: plain.database, logger: false })).rejects.toThrow(
      StaticDirError,
    );
    await expect(buildApp({ settings: testSettings({ staticDir: join(top, 'missing') }), database: plain.database, logger: false })).rejects.toThrow(
      /is not a directory/,
    );
  });
});
