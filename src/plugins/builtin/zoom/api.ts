// Zoom's REST API over the outbound client. Zoom keeps no maintained Node client for it, so this
// speaks its documented requests: an access token from the Server-to-Server OAuth grant
// (`account_credentials`, the app's client id and secret as Basic credentials), kept until shortly
// before it expires, then meetings under /v2 with that token as a Bearer token. Refusals become
// errors an Admin can act on (lib/outbound/vendor.ts); a 429 is retried after Zoom's Retry-After.
import { createHash } from 'node:crypto';
import type { Outbound } from '../../../lib/outbound/client.ts';
import { unanswered, type VendorWords, vendorFailure } from '../../../lib/outbound/vendor.ts';
import type { ZoomSettings } from './settings.ts';

const VENDOR = 'Zoom';
const words: VendorWords = {
  vendor: VENDOR,
  credential: "the app's credentials",
  check: 'check the account ID, client ID and client secret of the Server-to-Server OAuth app',
  permission:
    'the app needs the meeting:write:admin scope (meeting:write:meeting:admin, meeting:delete:meeting:admin), and the host must be a licensed user of the account',
};
const TIMEOUT_MS = 10_000;
/** A token is renewed this long before Zoom says it expires (a call must not carry one that dies on the way). */
const EARLY_RENEWAL_MS = 60_000;

/** Tokens by app (its credentials hashed): one per process, renewed before it expires. */
const tokens = new Map<string, { token: string; expiresAt: number }>();

const appKey = (s: ZoomSettings) =>
  createHash('sha256')
    .update(JSON.stringify([s.oauthUrl, s.accountId, s.clientId, s.clientSecret]))
    .digest('hex');

/** Zoom's error body: `{code, message}` from the API, `{error, reason}` from the OAuth server. */
async function detailOf(res: Response): Promise<string | undefined> {
  const body = (await res.json().catch(() => undefined)) as { code?: number; message?: string; error?: string; reason?: string } | undefined;
  if (!body) return undefined;
  if (body.message) return body.code === undefined ? body.message : `${body.message} (code ${body.code})`;
  return body.reason ?? body.error;
}

export interface ZoomMeetingWire {
  id: number;
  uuid?: string;
  topic?: string;
  join_url: string;
  password?: string;
}

export class ZoomApi {
  constructor(
    private readonly s: ZoomSettings,
    private readonly outbound: Outbound,
  ) {}

  /** The app's access token, from the cache while it is good unless `fresh` (a check on save asks Zoom itself). */
  async token(opts: { fresh?: boolean } = {}): Promise<string> {
    const key = appKey(this.s);
    const cached = tokens.get(key);
    if (!opts.fresh && cached && cached.expiresAt > Date.now()) return cached.token;
    const doing = 'issuing an access token';
    let res: Response;
    try {
      res = await this.outbound.fetch(`${this.s.oauthUrl}/oauth/token`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${this.s.clientId}:${this.s.clientSecret}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
          accept: 'application/json',
        },
        body: new URLSearchParams({ grant_type: 'account_credentials', account_id: this.s.accountId }).toString(),
        timeoutMs: TIMEOUT_MS,
      });
    } catch (err) {
      throw unanswered(VENDOR, err, doing);
    }
    if (!res.ok) {
      // Zoom answers a wrong client id or secret with 400 or 401 and `invalid_client`: the credentials either way.
      const detail = await detailOf(res);
      const status = res.status === 400 && /client/i.test(detail ?? '') ? 401 : res.status;
      throw vendorFailure(words, { status, retryAfter: res.headers.get('retry-after'), doing, detail });
    }
    const body = (await res.json()) as { access_token?: string; expires_in?: number };
    if (!body.access_token) throw new Error(`${VENDOR} issued no access token`);
    tokens.set(key, { token: body.access_token, expiresAt: Date.now() + (body.expires_in ?? 3600) * 1000 - EARLY_RENEWAL_MS });
    return body.access_token;
  }

  /** A meeting hosted by `host` (an e-mail, a user id or `me`). */
  async createMeeting(host: string, meeting: Record<string, unknown>): Promise<ZoomMeetingWire> {
    const res = await this.call('POST', `/v2/users/${encodeURIComponent(host)}/meetings`, 'creating the meeting', meeting);
    return (await res.json()) as ZoomMeetingWire;
  }

  /** Deletes a meeting; one Zoom no longer has (404) is gone already. */
  async deleteMeeting(id: string): Promise<void> {
    await this.call('DELETE', `/v2/meetings/${encodeURIComponent(id)}`, 'deleting the meeting', undefined, [404]);
  }

  private async call(method: string, path: string, doing: string, body?: unknown, fine: number[] = []): Promise<Response> {
    const token = await this.token();
    let res: Response;
    try {
      res = await this.outbound.fetch(`${this.s.apiUrl}${path}`, {
        method,
        headers: { authorization: `Bearer ${token}`, accept: 'application/json', ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
        timeoutMs: TIMEOUT_MS,
      });
    } catch (err) {
      throw unanswered(VENDOR, err, doing);
    }
    if (res.ok || fine.includes(res.status)) return res;
    // A token Zoom no longer takes (the app's secret was rotated) is not asked for again.
    if (res.status === 401) tokens.delete(appKey(this.s));
    throw vendorFailure(words, { status: res.status, retryAfter: res.headers.get('retry-after'), doing, detail: await detailOf(res) });
  }
}
