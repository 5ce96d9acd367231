// Login tokens: HS256 JWTs with exactly the claims {email, exp}, as Dispatch issues them.
import { createSecretKey, type KeyObject } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  email: string;
  exp: number;
}

export class Tokens {
  private readonly key: KeyObject;
  // Verified tokens, remembered until they expire: verifying is a pure function of the token
  // and the key, so nothing here needs sharing or invalidating between nodes.
  private readonly verified = new Map<string, TokenClaims>();

  constructor(
    secret: string,
    private readonly lifetimeSeconds: number,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  async issue(email: string): Promise<string> {
    const exp = Math.floor(Date.now() / 1000) + this.lifetimeSeconds;
    return new SignJWT({ email, exp }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(this.key);
  }

  /** The token's email, or null when it is malformed, forged or expired. */
  async verify(token: string): Promise<string | null> {
    const now = Date.now() / 1000;
    const known = this.verified.get(token);
    if (known) {
      if (known.exp > now) return known.email;
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.email !== 'string' || typeof payload.exp !== 'number') return null;
      if (this.verified.size >= 10_000) this.verified.clear();
      this.verified.set(token, { email: payload.email, exp: payload.exp });
      return payload.email;
    } catch {
      return null;
    }
  }
}
