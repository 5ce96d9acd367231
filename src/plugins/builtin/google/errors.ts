// What went wrong with a call to Google, in words an Admin can act on: which credential or
// permission Google refused, or that it asked to be called later (RetryLater, after its
// Retry-After) or did not answer. The words quote nothing of the key or the token; Google's own
// reason (`invalid_grant`, `insufficientPermissions`) is kept, as it is what its docs are searched by.
import { failureOf } from '../../../lib/outbound/client.ts';
import { RetryLater } from '../../../lib/retry-later.ts';

/** A failure of a Google plugin, its message written for the Admin who configured it. */
export class GoogleFailure extends Error {
  constructor(
    message: string,
    readonly status?: number,
    /** Google's reason (`invalid_grant`, `notFound`), when it gave one. */
    readonly reason?: string,
  ) {
    super(message);
    this.name = 'GoogleFailure';
  }
}

interface GaxiosLike {
  status?: number;
  code?: string | number;
  config?: { url?: string | URL };
  response?: { status?: number; headers?: Headers | Record<string, string>; data?: unknown };
}

/** Seconds a Retry-After header asks for (seconds or an HTTP date), at least 1, or undefined. */
function retryAfter(headers: unknown): number | undefined {
  const value = headers instanceof Headers ? headers.get('retry-after') : (headers as Record<string, string> | undefined)?.['retry-after'];
  if (!value) return undefined;
  const seconds = /^\d+$/.test(value) ? Number(value) : (Date.parse(value) - Date.now()) / 1000;
  return Number.isFinite(seconds) ? Math.max(1, Math.ceil(seconds)) : undefined;
}

/** Google's reason for an error answer: the token endpoint's `error`, or an API's first `errors[].reason` or `status`. */
function reasonOf(data: unknown): string | undefined {
  const d = data as { error?: string | { status?: string; errors?: { reason?: string }[] } } | undefined;
  if (typeof d?.error === 'string') return d.error;
  return d?.error?.errors?.[0]?.reason ?? d?.error?.status;
}

/** The error of a call that failed, translated; `what` names the call ("Drive files.copy"). */
export function translate(what: string, err: unknown): Error {
  if (err instanceof GoogleFailure || err instanceof RetryLater) return err;
  const e = err as GaxiosLike;
  const status = e.response?.status ?? (typeof e.status === 'number' ? e.status : undefined);
  if (!status) return new GoogleFailure(`Google did not answer ${what}: ${failureOf(err)}`);
  const reason = reasonOf(e.response?.data);
  const because = reason ? `: ${reason}` : '';
  const tokenRequest = reason === 'invalid_grant' || reason === 'unauthorized_client' || String(e.config?.url ?? '').endsWith('/token');
  if (tokenRequest && status < 500 && status !== 429) {
    if (reason === 'unauthorized_client')
      return new GoogleFailure(
        `Google refused to let the service account act as the configured user (${status}${because}): grant it domain-wide delegation with the plugin's scopes in the Admin console`,
        status,
        reason,
      );
    return new GoogleFailure(
      `Google refused the service account key (${status}${because}): check the key is current and the configured user exists`,
      status,
      reason,
    );
  }
  if (status === 429 || status === 503) {
    const seconds = retryAfter(e.response?.headers);
    if (seconds !== undefined) return new RetryLater(seconds, `Google asked to wait ${seconds} s before ${what} again (${status})`);
  }
  if (status === 401) return new GoogleFailure(`Google refused the access token for ${what} (401${because})`, status, reason);
  if (status === 403)
    return new GoogleFailure(
      `Google refused ${what} (403${because}): check the plugin's scopes are delegated and the configured user may do this`,
      status,
      reason,
    );
  if (status === 404) return new GoogleFailure(`Google found nothing for ${what} (404): check the configured ids`, status, reason);
  if (status === 429) return new GoogleFailure(`Google is limiting the rate of ${what} (429${because})`, status, reason);
  return new GoogleFailure(`Google answered ${status} to ${what}${because}`, status, reason);
}

/** Runs one call to Google, its failure translated. */
export async function call<T>(what: string, run: () => Promise<{ data: T }>): Promise<T> {
  try {
    return (await run()).data;
  } catch (err) {
    throw translate(what, err);
  }
}

/** Like `call`, but a thing already gone (404, 410) is not an error: deleting twice changes nothing. */
export async function callUnlessGone(what: string, run: () => Promise<unknown>): Promise<void> {
  try {
    await run();
  } catch (err) {
    const failure = translate(what, err);
    if (failure instanceof GoogleFailure && (failure.status === 404 || failure.status === 410)) return;
    throw failure;
  }
}
