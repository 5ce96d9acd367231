// The app's token for Microsoft Graph: MSAL's client-credentials flow (a ConfidentialClientApplication
// with the app registration's client secret, scope https://graph.microsoft.com/.default), its HTTP
// through the outbound client (MSAL's INetworkModule). MSAL is given the tenant's endpoints
// (authorityMetadata, the authority host as a known authority) instead of discovering them, so the
// token endpoint is the configured host's. The token is kept until shortly before it expires.
import { createHash } from 'node:crypto';
import type { INetworkModule, NetworkRequestOptions, NetworkResponse } from '@azure/msal-node';
import type { Outbound } from '../../../lib/outbound/client.ts';
import { unanswered, type VendorWords, vendorFailure } from '../../../lib/outbound/vendor.ts';
import type { TeamsSettings } from './settings.ts';

export const GRAPH_SCOPE = 'https://graph.microsoft.com/.default';
const TIMEOUT_MS = 10_000;
const EARLY_RENEWAL_MS = 60_000;
const VENDOR = 'Microsoft Entra ID';

const tokens = new Map<string, { token: string; expiresAt: number }>();
const appKey = (s: TeamsSettings) =>
  createHash('sha256')
    .update(JSON.stringify([s.authorityUrl, s.tenantId, s.clientId, s.clientSecret]))
    .digest('hex');

/** MSAL's HTTP through the outbound client; the last answer is kept for the error that follows a refusal. */
class OutboundNetwork implements INetworkModule {
  last?: { status: number; retryAfter: string | null };
  constructor(private readonly outbound: Outbound) {}

  private async send<T>(method: string, url: string, options?: NetworkRequestOptions): Promise<NetworkResponse<T>> {
    const res = await this.outbound.fetch(url, { method, headers: options?.headers, body: options?.body, timeoutMs: TIMEOUT_MS });
    const headers = Object.fromEntries([...res.headers].map(([k, v]) => [k.toLowerCase(), v]));
    this.last = { status: res.status, retryAfter: res.headers.get('retry-after') };
    const text = await res.text();
    let body: unknown = {};
    try {
      body = text ? JSON.parse(text) : {};
    } catch {
      body = { error: 'unparseable_answer', error_description: `answered ${res.status} with a body that is not JSON` };
    }
    return { headers, body: body as T, status: res.status };
  }

  sendGetRequestAsync<T>(url: string, options?: NetworkRequestOptions) {
    return this.send<T>('GET', url, options);
  }

  sendPostRequestAsync<T>(url: string, options?: NetworkRequestOptions) {
    return this.send<T>('POST', url, options);
  }
}

/** The tenant's endpoints, as its OpenID configuration lists them, under the configured host. */
function authorityMetadata(s: TeamsSettings) {
  const tenant = `${s.authorityUrl}/${encodeURIComponent(s.tenantId)}`;
  return JSON.stringify({
    token_endpoint: `${tenant}/oauth2/v2.0/token`,
    authorization_endpoint: `${tenant}/oauth2/v2.0/authorize`,
    end_session_endpoint: `${tenant}/oauth2/v2.0/logout`,
    jwks_uri: `${s.authorityUrl}/${encodeURIComponent(s.tenantId)}/discovery/v2.0/keys`,
    issuer: `https://login.microsoftonline.com/${encodeURIComponent(s.tenantId)}/v2.0`,
    token_endpoint_auth_methods_supported: ['client_secret_post', 'private_key_jwt', 'client_secret_basic'],
  });
}

const words: VendorWords = {
  vendor: VENDOR,
  credential: "the app's credentials",
  check: 'check the tenant ID, client ID and client secret of the app registration (a secret may have expired)',
  permission: "the app needs the OnlineMeetings.ReadWrite.All application permission with an administrator's consent",
};

/** Drops the app's token (Graph refused it): the next call asks for a new one. */
export const forgetToken = (s: TeamsSettings) => tokens.delete(appKey(s));

/** The app's access token for Microsoft Graph, from the cache while it is good unless `fresh` (a check on save). */
export async function graphToken(s: TeamsSettings, outbound: Outbound, opts: { fresh?: boolean } = {}): Promise<string> {
  const key = appKey(s);
  const cached = tokens.get(key);
  if (!opts.fresh && cached && cached.expiresAt > Date.now()) return cached.token;
  const network = new OutboundNetwork(outbound);
  // A client per token: MSAL's own throttling memory and cache must not outlive a changed configuration.
  // MSAL is loaded on first use, not by every `muster` start.
  const { ConfidentialClientApplication } = await import('@azure/msal-node');
  const app = new ConfidentialClientApplication({
    auth: {
      clientId: s.clientId,
      clientSecret: s.clientSecret,
      // MSAL takes only https authorities; the endpoints it calls are the metadata's, under the configured host.
      authority: `https://${new URL(s.authorityUrl).host}/${encodeURIComponent(s.tenantId)}`,
      knownAuthorities: [new URL(s.authorityUrl).host],
      authorityMetadata: authorityMetadata(s),
    },
    system: { networkClient: network, disableInternalRetries: true },
  });
  const doing = 'issuing an access token for Microsoft Graph';
  try {
    const result = await app.acquireTokenByClientCredential({ scopes: [GRAPH_SCOPE], skipCache: true });
    if (!result?.accessToken) throw new Error(`${VENDOR} issued no access token`);
    const expiresAt = (result.expiresOn?.getTime() ?? Date.now() + 3_600_000) - EARLY_RENEWAL_MS;
    tokens.set(key, { token: result.accessToken, expiresAt });
    return result.accessToken;
  } catch (err) {
    const e = err as { errorCode?: string; errorMessage?: string; status?: number };
    if (!network.last) throw unanswered(VENDOR, err, doing);
    // AADSTS codes say what is wrong (AADSTS7000215: invalid client secret) and quote no secret.
    const detail = e.errorMessage?.match(/AADSTS\d+: [^\r\n.]*/)?.[0] ?? e.errorCode;
    const status =
      network.last.status === 400 && /invalid_client|unauthorized_client|invalid_tenant|AADSTS(7000215|700016|90002)/.test(`${e.errorCode} ${e.errorMessage}`)
        ? 401
        : network.last.status;
    throw vendorFailure(words, { status, retryAfter: network.last.retryAfter, doing, detail });
  }
}
