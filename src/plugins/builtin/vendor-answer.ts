// What a vendor's refusal means for the job that called it, in words an Admin can act on: bad
// credentials, a missing permission, a rate limit (retried no sooner than the vendor asked), the
// vendor down, or no answer at all. Messages name the vendor and the status, never a secret.
import { failureOf } from '../../lib/outbound/client.ts';
import { RetryLater } from '../../lib/retry-later.ts';

/** When the vendor asks for no time, a rate-limited call is tried again after this many seconds. */
const DEFAULT_WAIT_SECONDS = 30;

/** Seconds a Retry-After header asks for (a number of seconds or an HTTP date), if it asks. */
export function retryAfterSeconds(value: string | null | undefined, now = Date.now()): number | undefined {
  if (!value) return undefined;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

export interface Refusal {
  vendor: string;
  status: number;
  /** The vendor's Retry-After header, when it sent one. */
  retryAfter?: string | null;
  /** What the call was for ("creating the meeting"). */
  doing: string;
  /** What to check on a 401 and a 403 (the credentials, a permission the app needs). */
  credentials: string;
  permission: string;
  /** The vendor's own words for it, when it gave any (its error code or message). */
  detail?: string;
}

/** A vendor's answer other than success (a 429 is a RetryLater instead): its status kept for checks on save. */
export class VendorRefusal extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The vendor's own words, when it gave any. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'VendorRefusal';
  }
}

/** The error a job throws for a vendor's answer other than success. */
export function refusalError(r: Refusal): Error {
  const said = r.detail ? `: ${r.detail}` : '';
  const refusal = (message: string) => new VendorRefusal(r.status, message, r.detail);
  if (r.status === 429) {
    const wait = retryAfterSeconds(r.retryAfter) ?? DEFAULT_WAIT_SECONDS;
    return new RetryLater(wait, `${r.vendor} is rate limiting the app (429) ${r.doing}; tried again after ${wait} s`);
  }
  if (r.status === 401) return refusal(`${r.vendor} refused the app's credentials (401) ${r.doing}: check ${r.credentials}${said}`);
  if (r.status === 403) return refusal(`${r.vendor} refused the request (403) ${r.doing}: the app needs ${r.permission}${said}`);
  if (r.status >= 500) return refusal(`${r.vendor} is unavailable (${r.status}) ${r.doing}${said}`);
  return refusal(`${r.vendor} answered ${r.status} ${r.doing}${said}`);
}

/** The error for a call that got no answer (a timeout, a refused connection, the outbound policy). */
export const unreachableError = (vendor: string, doing: string, err: unknown) => new Error(`${vendor} did not answer ${doing}: ${failureOf(err)}`);
