// Login tokens: HS256 JWTs with Dispatch's claims {email, exp}, plus `iat`, which lets a password
// change or a reset refuse every token issued before it (app_user.tokens_valid_after).
import { createSecretKey, type KeyObject } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';

export interface TokenClaims {
  email: string;
  exp: number;
  /** Seconds since the epoch the token was issued at. */
  iat: number;
}

export class Tokens {
  private readonly key: KeyObject;
  // Verified tokens, remembered until they expire: verifying is a pure function of the token
  // and the key, so nothing here needs sharing or invalidating between nodes (revocation is
  // decided per request against the user's row).
  private readonly verified = new Map<string, TokenClaims>();

  constructor(
    secret: string,
    private readonly lifetimeSeconds: number,
  ) {
    this.key = createSecretKey(Buffer.from(secret, 'utf8'));
  }

  async issue(email: string): Promise<string> {
    const iat = Math.floor(Date.now() / 1000);
    return new SignJWT({ email, exp: iat + this.lifetimeSeconds, iat }).setProtectedHeader({ alg: 'HS256', typ: 'JWT' }).sign(this.key);
  }

  /** The token's claims, or null when it is malformed, forged or expired. */
  async verify(token: string): Promise<TokenClaims | null> {
    const now = Date.now() / 1000;
    const known = this.verified.get(token);
    if (known) {
      if (known.exp > now) return known;
      this.verified.delete(token);
      return null;
    }
    try {
      const { payload } = await jwtVerify(token, this.key, { algorithms: ['HS256'] });
      if (typeof payload.email !== 'string' || typeof payload.exp !== 'number') return null;
      // A token without `iat` (issued by Dispatch with the same key) counts as issued a lifetime before it expires.
      const iat = typeof payload.iat === 'number' ? payload.iat : payload.exp - this.lifetimeSeconds;
      const claims = { email: payload.email, exp: payload.exp, iat };
      if (this.verified.size >= 10_000) this.verified.clear();
      this.verified.set(token, claims);
      return claims;
    } catch {
      return null;
    }
  }
}
