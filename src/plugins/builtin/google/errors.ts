// What went wrong with a call to Google, in words an Admin can act on: which credential or
// permission Google refused, or that it asked to be called later (RetryLater, after its
// Retry-After) or did not answer. The words quote nothing of the key or the token; Google's own
// reason (`invalid_grant`, `insufficientPermissions`) is kept, as it is what its docs are searched by.
import { unanswered, VendorError, type VendorWords, vendorFailure } from '../../../lib/outbound/vendor.ts';
import { RetryLater } from '../../../lib/retry-later.ts';

const words: VendorWords = {
  vendor: 'Google',
  credential: 'the access token',
  check: 'check the service account key and the configured user',
  permission: "check the plugin's scopes are delegated and the configured user may do this",
  missing: 'check the configured ids',
};

interface GaxiosLike {
  status?: number;
  code?: string | number;
  config?: { url?: string | URL };
  response?: { status?: number; headers?: Headers | Record<string, string>; data?: unknown };
}

/** The Retry-After header of an answer, whichever way the client gives headers. */
const retryAfterOf = (headers: unknown): string | undefined =>
  headers instanceof Headers ? (headers.get('retry-after') ?? undefined) : (headers as Record<string, string> | undefined)?.['retry-after'];

/** Google's reason for an error answer: the token endpoint's `error`, or an API's first `errors[].reason` or `status`. */
function reasonOf(data: unknown): string | undefined {
  const d = data as { error?: string | { status?: string; errors?: { reason?: string }[] } } | undefined;
  if (typeof d?.error === 'string') return d.error;
  return d?.error?.errors?.[0]?.reason ?? d?.error?.status;
}

/** The error of a call that failed, translated; `what` names the call ("Drive files.copy"). */
export function translate(what: string, err: unknown): Error {
  if (err instanceof VendorError || err instanceof RetryLater) return err;
  const e = err as GaxiosLike;
  const status = e.response?.status ?? (typeof e.status === 'number' ? e.status : undefined);
  if (!status) return unanswered(words.vendor, err, what);
  const reason = reasonOf(e.response?.data);
  const because = reason ? `: ${reason}` : '';
  const tokenRequest = reason === 'invalid_grant' || reason === 'unauthorized_client' || String(e.config?.url ?? '').endsWith('/token');
  if (tokenRequest && status < 500 && status !== 429) {
    if (reason === 'unauthorized_client')
      return new VendorError(
        `Google refused to let the service account act as the configured user (${status}${because}): grant it domain-wide delegation with the plugin's scopes in the Admin console`,
        status,
        reason,
      );
    return new VendorError(
      `Google refused the service account key (${status}${because}): check the key is current and the configured user exists`,
      status,
      reason,
    );
  }
  return vendorFailure(words, { status, retryAfter: retryAfterOf(e.response?.headers), doing: `for ${what}`, detail: reason });
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
    if (failure instanceof VendorError && (failure.status === 404 || failure.status === 410)) return;
    throw failure;
  }
}
