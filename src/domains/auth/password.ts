// Password hashing with scrypt (memory-hard, from node:crypto). Hashes of users imported from
// Dispatch (bcrypt, `$2a$`/`$2b$`) still verify, and are replaced by scrypt on their next login.
// A hash names its own cost, so hashes of any cost verify; the cost of new hashes is a setting
// (MUSTER_PASSWORD_COST), and a sign-in replaces a hash of a lower cost than it.
import { randomBytes, scrypt as scryptCb, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import bcrypt from 'bcryptjs';

const R = 8;
const P = 1;
const KEYLEN = 32;

/** The most memory scrypt may take for N and r: twice the 128·N·r bytes it needs, since Node checks the bound only roughly. */
const memoryFor = (n: number, r: number) => 2 * 128 * n * r;

const scrypt = (password: string, salt: Buffer, opts: ScryptOptions & { N: number; r: number }) =>
  new Promise<Buffer>((resolve, reject) =>
    scryptCb(password.normalize('NFKC'), salt, KEYLEN, { ...opts, maxmem: memoryFor(opts.N, opts.r) }, (err, key) => (err ? reject(err) : resolve(key))),
  );

/** A new hash; `cost` is scrypt's N as a power of 2 (with r = 8, 14 takes 16 MiB and about 50 ms). */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const n = 2 ** cost;
  const key = await scrypt(password, salt, { N: n, r: R, p: P });
  return `scrypt$${n}$${R}$${P}$${salt.toString('base64')}$${key.toString('base64')}`;
}

export const isLegacyHash = (stored: string) => stored.startsWith('$2');

/** Whether a sign-in should store a new hash of the password: a bcrypt hash, or scrypt of a lower cost than `cost`. */
export function needsRehash(stored: string, cost: number): boolean {
  if (isLegacyHash(stored)) return true;
  const [scheme, n] = stored.split('$');
  return scheme === 'scrypt' && Number(n) < 2 ** cost;
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  if (isLegacyHash(stored)) return bcrypt.compare(password, stored);
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await scrypt(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

// Verifying against this when the email is unknown makes both failures take the same time: a hash
// of the cost new hashes have.
const decoys = new Map<number, Promise<string>>();
export function decoyHash(cost: number): Promise<string> {
  let decoy = decoys.get(cost);
  if (!decoy) decoys.set(cost, (decoy = hashPassword(randomBytes(12).toString('hex'), cost)));
  return decoy;
}

/**
 * Stored for an account that never signs in with a password (a service account): no password
 * verifies against it, and sign-in refuses such accounts before verifying anything.
 */
export const NO_PASSWORD = '!';

export const randomPassword = () => randomBytes(18).toString('base64url');
