// Dispatch's plugin configurations at rest, opened with its DISPATCH_ENCRYPTION_KEY. Dispatch stores
// them as sqlalchemy-utils' StringEncryptedType with the AES engine and pkcs5 padding: AES-256-CBC,
// the key SHA-256 of the secret, the IV the key's first 16 bytes, the ciphertext in base64. A value
// that is a Fernet token (`gAAAA...`: AES-128-CBC and HMAC-SHA256 under a 32-byte url-safe key) is
// opened as Fernet, for installations that wrapped their values that way.
import { createDecipheriv, createHash, createHmac, timingSafeEqual } from 'node:crypto';

export class WrongDispatchKey extends Error {}

function aesEngine(value: string, secret: string): string {
  const key = createHash('sha256').update(secret, 'utf8').digest();
  const decipher = createDecipheriv('aes-256-cbc', key, key.subarray(0, 16));
  return Buffer.concat([decipher.update(Buffer.from(value, 'base64')), decipher.final()]).toString('utf8');
}

function fernet(token: string, secret: string): string {
  const key = Buffer.from(secret, 'base64url');
  if (key.length !== 32) throw new WrongDispatchKey('a Fernet key is 32 bytes in url-safe base64');
  const data = Buffer.from(token, 'base64url');
  const signed = data.subarray(0, data.length - 32);
  const mac = createHmac('sha256', key.subarray(0, 16)).update(signed).digest();
  if (data[0] !== 0x80 || !timingSafeEqual(mac, data.subarray(data.length - 32))) throw new WrongDispatchKey('the token does not verify with this key');
  const decipher = createDecipheriv('aes-128-cbc', key.subarray(16), signed.subarray(9, 25));
  return Buffer.concat([decipher.update(signed.subarray(25)), decipher.final()]).toString('utf8');
}

/** The configuration in clear, as the JSON object Dispatch stored; throws WrongDispatchKey. */
export function openDispatchConfiguration(stored: string, secret: string): Record<string, unknown> {
  let text: string;
  try {
    text = stored.startsWith('gAAAAA') ? fernet(stored, secret) : aesEngine(stored, secret);
  } catch (err) {
    if (err instanceof WrongDispatchKey) throw err;
    throw new WrongDispatchKey('it does not decrypt with this key');
  }
  try {
    const parsed = JSON.parse(text);
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) return parsed;
  } catch {
    /* below */
  }
  throw new WrongDispatchKey('it decrypts to something other than a JSON object: the key is not the one it was written with');
}
