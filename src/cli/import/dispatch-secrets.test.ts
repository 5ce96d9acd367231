// Dispatch's encrypted plugin configurations, opened: vectors made here with node:crypto the way
// sqlalchemy-utils' AES engine (pkcs5) and Fernet write them.
import { createCipheriv, createHash, createHmac, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openDispatchConfiguration, WrongDispatchKey } from './dispatch-secrets.ts';

const CONFIG = { api_key: 'k-123', url: 'https://example.com' };

function aesEngine(value: string, secret: string): string {
  const key = createHash('sha256').update(secret).digest();
  const c = createCipheriv('aes-256-cbc', key, key.subarray(0, 16));
  return Buffer.concat([c.update(value, 'utf8'), c.final()]).toString('base64');
}

function fernet(value: string, key: Buffer): string {
  const iv = randomBytes(16);
  const c = createCipheriv('aes-128-cbc', key.subarray(16), iv);
  const time = Buffer.alloc(8);
  time.writeBigUInt64BE(BigInt(Math.floor(Date.now() / 1000)));
  const signed = Buffer.concat([Buffer.from([0x80]), time, iv, c.update(value, 'utf8'), c.final()]);
  return Buffer.concat([signed, createHmac('sha256', key.subarray(0, 16)).update(signed).digest()]).toString('base64url');
}

describe("Dispatch's plugin configurations", () => {
  it('opens what the AES engine wrote with the same key, and refuses another key', () => {
    const stored = aesEngine(JSON.stringify(CONFIG), 'dispatch secret');
    expect(openDispatchConfiguration(stored, 'dispatch secret')).toEqual(CONFIG);
    expect(() => openDispatchConfiguration(stored, 'another secret')).toThrow(WrongDispatchKey);
  });

  it('opens a Fernet token with its key, and refuses one whose signature does not verify', () => {
    const key = randomBytes(32);
    const token = fernet(JSON.stringify(CONFIG), key);
    expect(token.startsWith('gAAAAA')).toBe(true);
    expect(openDispatchConfiguration(token, key.toString('base64url'))).toEqual(CONFIG);
    expect(() => openDispatchConfiguration(token, randomBytes(32).toString('base64url'))).toThrow(/does not verify/);
  });
});
