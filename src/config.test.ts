import { mkdtempSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, describeSettings, loadSettings, readSettings } from './config.ts';

const tmp = () => mkdtempSync(join(tmpdir(), 'muster-config-'));

describe('settings', () => {
  it('reads the environment, then .env, then defaults', () => {
    const cwd = tmp();
    writeFileSync(join(cwd, '.env'), 'MUSTER_JWT_EXP=60\nMUSTER_UI_URL=http://from-dotenv\nLOG_LEVEL=debug\n');
    const s = readSettings({ MUSTER_UI_URL: 'http://from-env' }, cwd);
    expect(s.uiUrl).toBe('http://from-env');
    expect(s.jwtExp).toBe(60);
    expect(s.logLevel).toBe('debug');
    expect(s.registrationEnabled).toBe(true);
    expect(s.dataDir).toBe(join(cwd, '.muster'));
  });

  it("reads Dispatch's names of a setting when Muster's own is unset", () => {
    const s = readSettings(
      { DISPATCH_JWT_AUDIENCE: 'dispatch-aud', DISPATCH_JWT_EMAIL_OVERRIDE: 'upn', DISPATCH_AUTHENTICATION_PROVIDER_PKCE_JWKS: 'https://idp.example/jwks' },
      tmp(),
    );
    expect([s.oidcAudience, s.oidcEmailClaim, s.oidcJwksUrl, s.headerAuthName]).toEqual(['dispatch-aud', 'upn', 'https://idp.example/jwks', 'remote-user']);
    const both = readSettings(
      { MUSTER_OIDC_AUDIENCE: 'muster-aud', DISPATCH_JWT_AUDIENCE: 'dispatch-aud', DISPATCH_AUTHENTICATION_PROVIDER_HEADER_NAME: 'x-user' },
      tmp(),
    );
    expect([both.oidcAudience, both.headerAuthName]).toEqual(['muster-aud', 'x-user']);
    expect(describeSettings(both).find((r) => r.key === 'MUSTER_OIDC_AUDIENCE')?.description).toMatch(/also read from DISPATCH_JWT_AUDIENCE/);
  });

  it('refuses malformed values with the variable named', () => {
    expect(() => readSettings({ MUSTER_JWT_EXP: 'soon' }, tmp())).toThrow(/MUSTER_JWT_EXP/);
    expect(() => readSettings({ MUSTER_REGISTRATION_ENABLED: 'perhaps' }, tmp())).toThrow(ConfigError);
    expect(readSettings({ MUSTER_REGISTRATION_ENABLED: 'false' }, tmp()).registrationEnabled).toBe(false);
    // A whole number within the setting's range.
    expect(readSettings({}, tmp()).passwordCost).toBe(14);
    expect(readSettings({ MUSTER_PASSWORD_COST: '17' }, tmp()).passwordCost).toBe(17);
    expect(() => readSettings({ MUSTER_PASSWORD_COST: '9' }, tmp())).toThrow('MUSTER_PASSWORD_COST must be from 10 to 17, got 9');
    expect(() => readSettings({ MUSTER_PASSWORD_COST: '18' }, tmp())).toThrow(ConfigError);
  });

  it('generates the embedded database secrets once and keeps them', () => {
    const cwd = tmp();
    const a = loadSettings({}, cwd);
    const b = loadSettings({}, cwd);
    expect(a.jwtSecret).toHaveLength(43);
    expect(b.jwtSecret).toBe(a.jwtSecret);
    expect(b.encryptionKey).toBe(a.encryptionKey);
    const file = join(cwd, '.muster', 'secrets.json');
    expect(JSON.parse(readFileSync(file, 'utf8')).jwtSecret).toBe(a.jwtSecret);
    expect(statSync(file).mode & 0o777).toBe(0o600);
  });

  it('requires the secrets when DATABASE_URL is set', () => {
    expect(() => loadSettings({ DATABASE_URL: 'postgres://x/y' }, tmp())).toThrow(/MUSTER_JWT_SECRET and MUSTER_ENCRYPTION_KEY must be set/);
    expect(() => loadSettings({ DATABASE_URL: 'postgres://x/y', MUSTER_JWT_SECRET: 's' }, tmp())).toThrow(/MUSTER_ENCRYPTION_KEY/);
    expect(loadSettings({ DATABASE_URL: 'postgres://x/y', MUSTER_JWT_SECRET: 's', MUSTER_ENCRYPTION_KEY: 'k' }, tmp()).jwtSecret).toBe('s');
  });

  it('masks secrets when described', () => {
    const rows = describeSettings(readSettings({ DATABASE_URL: 'postgres://u:pw@h/db', MUSTER_JWT_SECRET: 'hush' }, tmp()));
    const byKey = Object.fromEntries(rows.map((r) => [r.key, r.value]));
    expect(byKey.DATABASE_URL).toBe("Secret('**********')");
    expect(byKey.MUSTER_JWT_SECRET).toBe("Secret('**********')");
    expect(byKey.MUSTER_JWT_EXP).toBe('86400');
    expect(rows.map((r) => r.key)).toEqual([...rows.map((r) => r.key)].sort());
  });
});
