// The one catalogue of errors Muster answers with. Every failure a client can cause is one of
// these, with the status and body the Dispatch contract gives it; services throw them and the
// error handler (server/error-handler.ts) writes them.

export interface ValidationItem {
  loc: (string | number)[];
  msg: string;
  type: string;
  ctx?: Record<string, unknown>;
}

export class ApiError extends Error {
  constructor(
    readonly statusCode: number,
    readonly detail: unknown,
    /** Headers the answer carries besides the body (Retry-After of a 503 or a 429). */
    readonly headers: Record<string, string> = {},
  ) {
    super(typeof detail === 'string' ? detail : JSON.stringify(detail));
  }

  get body() {
    return { detail: this.detail };
  }
}

/** Seconds a client is told to wait (Retry-After) before trying again after a 503. */
export const RETRY_AFTER_SECONDS = 5;

const message = (status: number, msg: string) => new ApiError(status, [{ msg }]);

/** 422 with Pydantic v1 style items. */
export const validationError = (items: ValidationItem[]) => new ApiError(422, items);

/** A rule a service enforces on one field (loc without the `body` prefix, as Dispatch's services do). */
export const invalid = (loc: (string | number)[], msg: string, type = 'value_error') => validationError([{ loc, msg, type, ctx: { msg } }]);

export const exists = (loc: string, msg: string) => invalid([loc], msg, 'value_error.exists');

export const errors = {
  unauthorized: () => message(401, 'Could not validate credentials'),
  forbidden: (msg = "Your user doesn't have permissions to create, update, or delete this resource. Please, contact your Muster admin.") => message(403, msg),
  notMember: () => message(403, 'You are not a member of this organization.'),
  organizationNotFound: () => message(404, 'Organization not found. Please, contact your Muster admin.'),
  /** `thing` is the record's name with its article: "A project", "An incident". */
  notFound: (thing: string) => message(404, `${thing} with this id does not exist.`),
  conflict: (msg: string) => message(409, msg),
  /** 412: a write's If-Match names a version of the record that is no longer current. */
  preconditionFailed: () =>
    message(412, 'The record was changed by someone else since you read it (If-Match does not hold). Read it again and reapply your change.'),
  /** Registration refused by the organization's policy, or with an invitation that does not hold. */
  registrationClosed: () => message(403, 'Registration in this organization needs an invitation.'),
  registrationDomain: () => message(403, 'Registration in this organization is open to addresses of its own domains only.'),
  invitationInvalid: () => message(403, 'This invitation is not valid: unknown, used, expired, or for another address.'),
  /** A `domains` policy needs a confirmed address, and this server sends no mail to confirm one with. */
  registrationNeedsMail: () =>
    message(403, 'Registration in this organization needs a confirmed address, and this server sends no mail: ask its Owner for an invitation.'),
  /** A confirmation or reset link that is unknown, used or expired. */
  linkInvalid: () => message(400, 'This link is not valid: unknown, used or expired. Ask for a new one.'),
  /** Password sign-in turned off for the organization: its members sign in through single sign-on. */
  passwordLoginOff: () => message(403, 'This organization signs in through single sign-on only.'),
  /** 429: too many failed logins; the client may try again after `retryAfter` seconds. */
  tooManyLogins: (retryAfter: number) =>
    new ApiError(429, [{ msg: 'Too many failed logins. Try again later.' }], { 'retry-after': String(Math.max(1, Math.ceil(retryAfter))) }),
  /** Single sign-on asked for where no OpenID Connect provider is configured. */
  ssoNotConfigured: () => message(404, 'Single sign-on is not configured.'),
  /** The single sign-on provider cannot be reached or fails on its side: sign in with a password, or later. */
  providerUnavailable: () =>
    new ApiError(503, [{ msg: 'The single sign-on provider is unavailable. Please, try again shortly or sign in with a password.' }], {
      'retry-after': String(RETRY_AFTER_SECONDS),
    }),
  /** A single sign-on attempt that does not hold: no or another attempt's cookie, a refused or forged answer. */
  ssoFailed: (msg = 'Single sign-on failed: the attempt expired or was started in another browser. Please, try again.') => message(401, msg),
  /** The provider did not verify the address of an account whose owner has proven it. */
  ssoUnverified: () => message(403, 'The single sign-on provider has not verified this e-mail address.'),
  /** A request claiming to come from Slack that none of the organization's Slack instances signed (BEHAVIOR §12). */
  invalidSignature: () => message(403, 'Invalid request signature'),
  /** A request the service refuses as a whole (a disabled signal definition). */
  badRequest: (msg: string) => message(400, msg),
  /** 404 worded by the caller (no signal definition matches the instance). */
  notFoundWith: (msg: string) => message(404, msg),
  /** 413 for one part of the body (a signal instance's `raw`). */
  tooLarge: (msg: string) => message(413, msg),
  /** 415 for an uploaded file whose bytes are of no type the server accepts. */
  fileTypeRefused: (found: string) => message(415, `Files of this type are not accepted (${found}).`),
  routeNotFound: () => new ApiError(404, 'Not Found'),
  methodNotAllowed: () => new ApiError(405, 'Method Not Allowed'),
  payloadTooLarge: (limit: number) => message(413, `Request body is larger than ${limit} bytes.`),
  unsupportedMediaType: (type: string, expected = 'application/json') => message(415, `Unsupported media type: ${type}. Send ${expected}.`),
  /** The database cannot serve now (down, restarting, out of connections, too slow): retry later. */
  databaseUnavailable: () =>
    new ApiError(503, [{ msg: 'The database is unavailable. Please, try again shortly.' }], { 'retry-after': String(RETRY_AFTER_SECONDS) }),
  /** The project's storage plugin could not make a record's folder in its outside system: nothing was stored; retry later. */
  storageUnavailable: () =>
    new ApiError(503, [{ msg: "The project's file storage could not make this record's folder. Nothing was stored; please, try again shortly." }], {
      'retry-after': String(RETRY_AFTER_SECONDS),
    }),
  /** A readiness check failed (GET /healthcheck/ready): each failed check and why. */
  notReady: (failures: { check: string; reason: string }[]) =>
    new ApiError(
      503,
      failures.map((f) => ({ msg: `${f.check}: ${f.reason}`, loc: [f.check] })),
      { 'retry-after': String(RETRY_AFTER_SECONDS) },
    ),
  unknown: () => new ApiError(500, [{ msg: 'Unknown', loc: ['Unknown'], type: 'Unknown' }]),
};
