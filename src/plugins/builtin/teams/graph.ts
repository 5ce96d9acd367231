// Microsoft Graph through its maintained client (@microsoft/microsoft-graph-client): requests built,
// bodies written and answers read by the client; its one middleware here sends them through the
// outbound client with the app's token. Graph's refusals become errors an Admin can act on, a 429
// a retry after Graph's Retry-After.
import { Client, type Context, GraphError, type Middleware } from '@microsoft/microsoft-graph-client';
import type { Outbound } from '../../../lib/outbound/client.ts';
import { unanswered, type VendorWords, vendorFailure } from '../../../lib/outbound/vendor.ts';
import { forgetToken, graphToken } from './auth.ts';
import type { TeamsSettings } from './settings.ts';

const TIMEOUT_MS = 10_000;

/** The last middleware of the chain: the request, with the app's token, through the outbound client. */
function outboundMiddleware(token: string, outbound: Outbound): Middleware {
  return {
    async execute(context: Context) {
      const headers = new Headers(context.options?.headers as HeadersInit | undefined);
      headers.set('authorization', `Bearer ${token}`);
      const url = typeof context.request === 'string' ? context.request : context.request.url;
      context.response = await outbound.fetch(url, { ...(context.options as RequestInit), headers, timeoutMs: TIMEOUT_MS });
    },
  };
}

const graphClient = (s: TeamsSettings, token: string, outbound: Outbound) =>
  Client.initWithMiddleware({ baseUrl: `${s.graphUrl}/`, defaultVersion: 'v1.0', middleware: outboundMiddleware(token, outbound) });

const words: VendorWords = {
  vendor: 'Microsoft Graph',
  credential: "the app's credentials",
  check: 'check the app registration: Graph did not take its token',
  permission:
    "the app needs the OnlineMeetings.ReadWrite.All application permission with an administrator's consent, and an application access policy granted to the organizer (Grant-CsApplicationAccessPolicy)",
};

/**
 * Runs a Graph call with the app's token (its issuing fails with its own reason first), turning
 * Graph's failures into errors that say what to fix; `fine` statuses answer undefined.
 */
export async function graphCall<T>(
  s: TeamsSettings,
  outbound: Outbound,
  doing: string,
  call: (client: Client) => Promise<T>,
  fine: number[] = [],
): Promise<T | undefined> {
  const client = graphClient(s, await graphToken(s, outbound), outbound);
  try {
    return await call(client);
  } catch (err) {
    // The client wraps what it did not get an answer for (no answer, the outbound policy) with no status.
    if (!(err instanceof GraphError) || err.statusCode <= 0) throw unanswered(words.vendor, err, doing);
    if (fine.includes(err.statusCode)) return undefined;
    if (err.statusCode === 401) forgetToken(s);
    throw vendorFailure(words, {
      status: err.statusCode,
      retryAfter: err.headers?.get('retry-after'),
      doing,
      detail: err.code ? `${err.code}${err.message ? `: ${err.message}` : ''}` : err.message || undefined,
    });
  }
}
