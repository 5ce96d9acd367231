// What an on-call or ticket vendor's answer means for the job that called it, in words an Admin can
// act on: a refused key (401), a key without the permission (403), a rate limit (429: the job is
// retried no sooner than the vendor's Retry-After), the vendor failing (5xx) or not answering. The
// detail (which call, what the vendor answered) goes to the operator's log, never into the message Members may see.
import { RetryLater } from '../retry-later.ts';
import { failureOf, type Outbound, type OutboundInit } from './client.ts';

/** A vendor call that did not succeed; its message is what the job's failure shows. */
export class VendorError extends Error {
  constructor(
    message: string,
    /** The vendor's status, or 0 when it did not answer. */
    readonly status: number,
  ) {
    super(message);
    this.name = 'VendorError';
  }
}

/** Seconds a Retry-After header asks for (seconds or an HTTP date), or `fallback`. */
export function retryAfterSeconds(header: string | null | undefined, fallback = 30): number {
  if (!header) return fallback;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const at = Date.parse(header);
  return Number.isNaN(at) ? fallback : Math.max(0, Math.ceil((at - Date.now()) / 1000));
}

/** The error for a vendor's non-2xx answer (a RetryLater for a 429). */
export function vendorFailure(vendor: string, status: number, retryAfter?: string | null, credential = 'the API key'): Error {
  if (status === 401) return new VendorError(`${vendor} refused ${credential} (401): check it in the plugin's configuration`, status);
  if (status === 403) return new VendorError(`${vendor} refused the request (403): ${credential} lacks the permission for it`, status);
  if (status === 404) return new VendorError(`${vendor} does not know what was asked for (404): check the service ids and URLs configured`, status);
  if (status === 429) return new RetryLater(retryAfterSeconds(retryAfter), `${vendor} is rate limiting Muster (429)`);
  if (status >= 500) return new VendorError(`${vendor} failed (${status}); retried later`, status);
  return new VendorError(`${vendor} answered ${status}`, status);
}

/** The operator's log line of a failed call: what it was (never its URL, which may hold a token) and why. */
export function logFailure(log: { warn(msg: string): void } | undefined, vendor: string, what: string, why: string) {
  log?.warn(`${vendor}: ${what} failed: ${why}`);
}

/**
 * Calls a vendor through the outbound client: the answer when it is 2xx, else the error its status
 * means. `what` names the call in the operator's log (the URL may carry a token: it is not logged);
 * `credential` names what a 401 or 403 refused (default: the API key).
 */
export async function vendorFetch(
  outbound: Outbound,
  call: { vendor: string; what: string; log?: { warn(msg: string): void }; credential?: string },
  url: string,
  init: OutboundInit,
): Promise<Response> {
  const { vendor, what, log, credential } = call;
  let res: Response;
  try {
    res = await outbound.fetch(url, init);
  } catch (err) {
    logFailure(log, vendor, what, failureOf(err));
    throw new VendorError(`${vendor} did not answer (${failureOf(err)}); retried later`, 0);
  }
  if (res.ok) return res;
  const text = await res.text().catch(() => '');
  logFailure(log, vendor, what, `${res.status} ${text.slice(0, 500)}`);
  throw vendorFailure(vendor, res.status, res.headers.get('retry-after'), credential);
}

/** The answer's JSON, or an error saying the vendor answered something else. */
export async function vendorJson<T>(vendor: string, res: Response): Promise<T> {
  try {
    return (await res.json()) as T;
  } catch {
    throw new VendorError(`${vendor} answered with something other than JSON`, res.status);
  }
}
