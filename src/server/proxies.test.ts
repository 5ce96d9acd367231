// A client's own X-Forwarded-For must not choose the address the per-address login limit counts:
// only the configured proxies are believed, so a burst of failed logins, each claiming another
// address, is still stopped.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, testSettings, type TestApp } from '../../test/helpers.ts';
import { freePort, muster, SERVER_SECRETS, tempDir } from '../../test/cli-helpers.ts';
import { ConfigError } from '../config.ts';
import { checkProxySettings, parseTrustedProxies, proxyMatcher } from './proxies.ts';

let n = 0;

/** A failed login of an account of its own (so only the per-address limit can answer 429). */
async function failedLogin(t: TestApp, peer: string, forwardedFor: string) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/v1/default/auth/login',
    remoteAddress: peer,
    headers: { 'content-type': 'application/json', 'x-forwarded-for': forwardedFor },
    payload: JSON.stringify({ email: `nobody-${++n}@example.com`, password: 'wrong' }),
  });
  return res.statusCode;
}

/** 60 failed logins, each with a spoofed address of its own in front of what the proxy appends. */
async function burst(t: TestApp, peer: string, appended: string | null) {
  const statuses: number[] = [];
  for (let i = 1; i <= 60; i++) {
    const spoofed = `198.51.100.${i}`;
    statuses.push(await failedLogin(t, peer, appended ? `${spoofed}, ${appended}` : spoofed));
  }
  return statuses;
}

describe('trusted proxies', () => {
  let oneHop: TestApp;
  let listed: TestApp;
  beforeAll(async () => {
    // What `server start --proxy-headers` means: the one proxy in front.
    oneHop = await createTestApp({ trustedProxies: '1' });
    listed = await createTestApp({ trustedProxies: '10.0.0.0/8, 192.0.2.1' });
  });
  afterAll(async () => {
    await oneHop.close();
    await listed.close();
  });

  it('behind one proxy, the address the proxy appended is counted, not the one the client sent', async () => {
    const statuses = await burst(oneHop, '10.0.0.2', '203.0.113.7');
    expect(statuses.slice(0, 50).every((s) => s === 422)).toBe(true);
    expect(statuses.slice(50).every((s) => s === 429)).toBe(true);
  });

  it('a client connecting directly is not believed about its address', async () => {
    const statuses = await burst(listed, '203.0.113.9', null);
    expect(statuses.slice(50).every((s) => s === 429)).toBe(true);
  });

  it('a listed proxy is believed about the client it forwards', async () => {
    // 203.0.113.9 is over its limit (the test above): through a listed proxy it still is, and
    // another client behind the same proxy is not.
    expect(await failedLogin(listed, '10.1.2.3', '203.0.113.9')).toBe(429);
    expect(await failedLogin(listed, '10.1.2.3', '203.0.113.50')).toBe(422);
  });
});

describe('MUSTER_TRUSTED_PROXIES', () => {
  it('is a hop count or a list of addresses and CIDRs', () => {
    expect(parseTrustedProxies(undefined)).toBeNull();
    expect(parseTrustedProxies('0')).toBeNull();
    expect(parseTrustedProxies('2')).toEqual({ hops: 2 });
    expect(parseTrustedProxies('10.0.0.0/8, ::1, fd00::/8')).toEqual({ cidrs: ['10.0.0.0/8', '::1', 'fd00::/8'] });
    expect(() => parseTrustedProxies('10.0.0.0/33')).toThrow(ConfigError);
    expect(() => parseTrustedProxies('proxy.example.com')).toThrow(ConfigError);
  });

  it('matches peers, IPv4 on a dual-stack socket included', () => {
    const trusted = proxyMatcher(['10.0.0.0/8', '::1']);
    expect(trusted('10.9.8.7')).toBe(true);
    expect(trusted('::ffff:10.9.8.7')).toBe(true);
    expect(trusted('::1')).toBe(true);
    expect(trusted('11.0.0.1')).toBe(false);
    expect(trusted(undefined)).toBe(false);
  });

  it('`muster server start` refuses header sign-in without proxies listed by address, naming the settings', async () => {
    const res = await muster(['server', 'start', '--port', String(await freePort())], {
      cwd: tempDir(),
      env: { ...SERVER_SECRETS, DATABASE_URL: undefined, MUSTER_HEADER_AUTH: 'true' },
    });
    expect(res.code).not.toBe(0);
    expect(res.stderr).toMatch(/MUSTER_HEADER_AUTH needs MUSTER_TRUSTED_PROXIES/);
  });

  it('header sign-in refuses to start without proxies listed by address', () => {
    expect(() => checkProxySettings(testSettings({ headerAuth: true }))).toThrow(ConfigError);
    expect(() => checkProxySettings(testSettings({ headerAuth: true, trustedProxies: '1' }))).toThrow(ConfigError);
    expect(checkProxySettings(testSettings({ headerAuth: true, trustedProxies: '127.0.0.1' }))).toEqual({ cidrs: ['127.0.0.1'] });
  });
});
