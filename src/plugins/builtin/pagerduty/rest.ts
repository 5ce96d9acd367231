// PagerDuty's REST API through its own client, @pagerduty/pdjs. pdjs makes its requests with
// cross-fetch (node-fetch on Node) and passes its options on to it: Muster hands it the outbound
// client's agent for each URL (the policy's address checks on connect), no redirects followed, a
// time limit and an answer size limit, as the outbound client's own fetch has. pdjs waits and
// retries a 429 three times by itself; after that the job is retried no sooner than Retry-After.
import { api } from '@pagerduty/pdjs';
import { failureOf } from '../../../lib/outbound/client.ts';
import { logFailure, unanswered, VendorError, vendorFailure } from '../../../lib/outbound/vendor.ts';
import type { PluginEnv } from '../../types.ts';

export const VENDOR = 'PagerDuty';
export const DEFAULT_API_URL = 'https://api.pagerduty.com';
export const DEFAULT_EVENTS_URL = 'https://events.pagerduty.com';

const TIMEOUT_MS = 10_000;
const MAX_ANSWER_BYTES = 4 * 1024 * 1024;
/** pdjs's wait between its own retries of a 429 (its default, 20 s, would hold a job for a minute). */
const RATE_LIMIT_WAIT_MS = 1_000;

export interface RestConfig {
  apiUrl: string;
  apiKey: string;
}

/** GETs a REST path (with query parameters, arrays as `key[]`): its JSON, or the error its answer means. */
export async function restGet<T>(rest: RestConfig, path: string, query: Record<string, string | string[]>, what: string, env: PluginEnv): Promise<T> {
  const url = `${rest.apiUrl.replace(/\/+$/, '')}${path}`;
  let res: Response & { data: unknown };
  try {
    // pdjs declares the REST call with node-fetch's own options left out of its types.
    const call = api as unknown as (params: Record<string, unknown>) => Promise<Response & { data: unknown }>;
    res = await call({
      url,
      method: 'GET',
      token: rest.apiKey,
      tokenType: 'token',
      queryParameters: query,
      requestTimeout: 0,
      retryTimeout: RATE_LIMIT_WAIT_MS,
      // node-fetch's own options, which pdjs passes on.
      agent: (u: { href: string }) => env.outbound.agentFor(u.href),
      redirect: 'manual',
      timeout: TIMEOUT_MS,
      size: MAX_ANSWER_BYTES,
    });
  } catch (err) {
    // pdjs rejects with the response itself when its body is not JSON.
    const status = (err as { status?: unknown })?.status;
    if (typeof status === 'number') {
      logFailure(env.log, VENDOR, what, `${status} (not JSON)`);
      throw status >= 200 && status < 300
        ? new VendorError(`${VENDOR} answered with something other than JSON`, status)
        : vendorFailure({ vendor: VENDOR }, { status, retryAfter: (err as Response).headers?.get('retry-after') });
    }
    logFailure(env.log, VENDOR, what, failureOf(err));
    throw unanswered(VENDOR, err);
  }
  if (!res.ok) {
    logFailure(env.log, VENDOR, what, `${res.status} ${JSON.stringify(res.data).slice(0, 500)}`);
    throw vendorFailure({ vendor: VENDOR }, { status: res.status, retryAfter: res.headers.get('retry-after') });
  }
  return res.data as T;
}
