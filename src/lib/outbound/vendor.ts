// What a vendor's answer means for the job that called it, in words an Admin can act on: a refused
// credential (401), a missing permission (403), nothing found (404), a rate limit (429, or a 503 that
// says when: the job is retried no sooner than the vendor's Retry-After), the vendor failing (5xx) or
// not answering. Each vendor gives only its words; the detail (which call, what the vendor answered)
// goes to the operator's log, and messages never quote a secret.
import { RetryLater } from '../retry-later.ts';
import { failureOf, type Outbound, type OutboundInit } from './client.ts';

/** When the vendor asks for no time, a rate-limited call is tried again after this many seconds. */
const DEFAULT_WAIT_SECONDS = 30;

/** A vendor call that did not succeed; its message is what the job's failure shows. */
export class VendorError extends Error {
  constructor(
    message: string,
    /** The vendor's status, or 0 when it did not answer (or the failure is not an answer's). */
    readonly status: number,
    /** The vendor's own words (its error code or reason), when it gave any. */
    readonly detail?: string,
  ) {
    super(message);
    this.name = 'VendorError';
  }
}

/** Seconds a Retry-After header asks for (seconds or an HTTP date), if it asks. */
export function retryAfterSeconds(header: string | null | undefined, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.ceil(seconds);
  const at = Date.parse(header);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
}

/** A vendor's own words for what its calls need. */
export interface VendorWords {
  vendor: string;
  /** What a 401 refused ("the API key", the default; "the app's credentials"). */
  credential?: string;
  /** What to do about a 401 (default: check it in the plugin's configuration). */
  check?: string;
  /** What a 403 says is missing (default: the credential lacks the permission for it). */
  permission?: string;
  /** What to do about a 404 (default: check the ids and URLs configured). */
  missing?: string;
}

/** One answer other than success: its status, Retry-After, what the call was doing and the vendor's words. */
export interface VendorAnswer {
  status: number;
  retryAfter?: string | null;
  /** What the call was for ("creating the meeting"), said after the status. */
  doing?: string;
  detail?: string;
}

/** The error for a vendor's answer other than success (a RetryLater for a 429, or a 503 with Retry-After). */
export function vendorFailure(words: VendorWords, answer: VendorAnswer): Error {
  const { vendor } = words;
  const { status, detail } = answer;
  const credential = words.credential ?? 'the API key';
  const doing = answer.doing ? ` ${answer.doing}` : '';
  const said = detail ? `: ${detail}` : '';
  const wait = retryAfterSeconds(answer.retryAfter);
  if (status === 429 || (status === 503 && wait !== undefined)) {
    const seconds = wait ?? DEFAULT_WAIT_SECONDS;
    const what = status === 429 ? 'is limiting the rate of requests' : 'is unavailable';
    return new RetryLater(seconds, `${vendor} ${what} (${status})${doing}; tried again after ${seconds} s`);
  }
  const failure = (message: string) => new VendorError(message, status, detail);
  if (status === 401) return failure(`${vendor} refused ${credential} (401)${doing}: ${words.check ?? "check it in the plugin's configuration"}${said}`);
  if (status === 403) return failure(`${vendor} refused the request (403)${doing}: ${words.permission ?? `${credential} lacks the permission for it`}${said}`);
  if (status === 404) return failure(`${vendor} found nothing (404)${doing}: ${words.missing ?? 'check the ids and URLs configured'}${said}`);
  if (status >= 500) return failure(`${vendor} is unavailable (${status})${doing}${said}`);
  return failure(`${vendor} answered ${status}${doing}${said}`);
}

/** The error for a call that got no answer (a timeout, a refused connection, the outbound policy). */
export const unanswered = (vendor: string, err: unknown, doing?: string) =>
  new VendorError(`${vendor} did not answer${doing ? ` ${doing}` : ''}: ${failureOf(err)}`, 0);

/** The operator's log line of a failed call: what it was (never its URL, which may hold a token) and why. */
export function logFailure(log: { warn(msg: string): void } | undefined, vendor: string, what: string, why: string) {
  log?.warn(`${vendor}: ${what} failed: ${why}`);
}

/**
 * Calls a vendor through the outbound client: the answer when it is 2xx, else the error its status
 * means. `what` names the call in the operator's log (the URL may carry a token: it is not logged).
 */
export async function vendorFetch(
  outbound: Outbound,
  call: { words: VendorWords; what: string; log?: { warn(msg: string): void } },
  url: string,
  init: OutboundInit,
): Promise<Response> {
  const { words, what, log } = call;
  let res: Response;
  try {
    res = await outbound.fetch(url, init);
  } catch (err) {
    logFailure(log, words.vendor, what, failureOf(err));
    throw unanswered(words.vendor, err);
  }
  if (res.ok) return res;
  const text = await res.text().catch(() => '');
  logFailure(log, words.vendor, what, `${res.status} ${text.slice(0, 500)}`);
  throw vendorFailure(words, { status: res.status, retryAfter: res.headers.get('retry-after') });
}

/** The answer's JSON, or an error saying the vendor answered something else. */
export async function vendorJson<T>(vendor: string, res: Response): Promise<T> {
  try {
    return (await res.json()) as T;
  } catch {
    throw new VendorError(`${vendor} answered with something other than JSON`, res.status);
  }
}
