// Recognising database errors that clients can cause, through either driver (drizzle wraps
// the driver's error in `cause`).
interface PgError {
  code?: string;
  constraint?: string;
  detail?: string;
  table?: string;
}

export function pgError(err: unknown): PgError | undefined {
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++) {
    if (typeof (e as PgError).code === 'string' && /^[0-9A-Z]{5}$/.test((e as PgError).code!)) return e as PgError;
  }
  return undefined;
}

export const isUniqueViolation = (err: unknown) => pgError(err)?.code === '23505';

/** The last column of the key a unique violation names: `Key (organization_id, name)=(...)` -> name. */
export function violatedColumn(err: unknown): string | undefined {
  const detail = pgError(err)?.detail ?? '';
  const m = /^Key \(([^)]*)\)=/.exec(detail);
  return m?.[1].split(',').at(-1)?.trim().replace(/"/g, '');
}

// ---------------------------------------------------------------------------------------------
// The database being unavailable: a failure of the service, not of the request, answered 503.

/** SQLSTATEs of a database that cannot serve now, whatever the request. */
const UNAVAILABLE_STATES: Record<string, string> = {
  '57014': 'statement timeout', // query_canceled: statement_timeout (or an operator's cancel)
  '57P01': 'admin shutdown',
  '57P02': 'crash shutdown',
  '57P03': 'cannot connect now',
  '57P05': 'idle session timeout',
  '25P03': 'idle in transaction timeout',
  '53300': 'too many connections',
  '53000': 'insufficient resources',
  '53100': 'disk full',
  '53200': 'out of memory',
  '40001': 'serialization failure',
  '40P01': 'deadlock detected',
};

/** Node's socket errors: the server cannot be reached. */
const UNAVAILABLE_ERRNOS = new Set(['ECONNREFUSED', 'ECONNRESET', 'EPIPE', 'ETIMEDOUT', 'ENOTFOUND', 'EAI_AGAIN', 'EHOSTUNREACH', 'ENETUNREACH', 'ENETDOWN']);

/** What pg and PGlite say when the connection is gone or was never had. */
const UNAVAILABLE_MESSAGES: [RegExp, string][] = [
  [/^Connection terminated due to connection timeout/, 'connect timeout'],
  [/^timeout exceeded when trying to connect/, 'pool timeout'],
  [/^timeout expired/, 'connect timeout'],
  [/^Query read timeout/, 'read timeout'],
  [/^Connection terminated/, 'connection terminated'],
  [/not queryable/, 'connection lost'],
  [/^Cannot use a pool after calling end/, 'database closed'],
  [/^PGlite is clos(ed|ing)/, 'database closed'],
];

/**
 * Why a failure is the database being unavailable (a short, value-free label such as
 * `08006 connection failure`, `ECONNREFUSED` or `57014 statement timeout`), or undefined when it is not.
 */
export function unavailableCause(err: unknown): string | undefined {
  for (let e = err as { cause?: unknown } | undefined, i = 0; e && i < 6; e = e.cause as typeof e, i++) {
    const { code, message } = e as { code?: unknown; message?: unknown };
    if (typeof code === 'string') {
      if (/^08[0-9A-Z]{3}$/.test(code)) return `${code} connection exception`;
      if (UNAVAILABLE_STATES[code]) return `${code} ${UNAVAILABLE_STATES[code]}`;
      if (UNAVAILABLE_ERRNOS.has(code)) return code;
    }
    if (typeof message === 'string') for (const [re, label] of UNAVAILABLE_MESSAGES) if (re.test(message)) return label;
  }
  return undefined;
}

/** PostgreSQL classes whose messages name schema objects and limits, never stored or sent values. */
const VALUE_FREE_CLASSES = new Set(['08', '0A', '25', '40', '42', '53', '54', '55', '57', '58', 'XX']);

/**
 * An error as it may be logged: its type, code and stack frames, and for a database error the
 * SQLSTATE and the objects it names. Never the statement's parameters (drizzle puts them in its
 * message), a row's values (the detail of a constraint violation) or a message that may quote them.
 */
export function loggableError(err: unknown, depth = 0): Record<string, unknown> {
  const e = (err ?? {}) as Error & { code?: unknown; cause?: unknown };
  const out: Record<string, unknown> = { type: e?.constructor?.name ?? typeof err };
  const code = typeof e.code === 'string' ? e.code : undefined;
  if (code && /^[0-9A-Z]{5}$/.test(code)) {
    const db = e as PgError & { message?: string; column?: string; schema?: string; routine?: string; severity?: string };
    out.sqlstate = code;
    for (const k of ['severity', 'schema', 'table', 'column', 'constraint', 'routine'] as const) if (db[k]) out[k] = db[k];
    if (VALUE_FREE_CLASSES.has(code.slice(0, 2)) && db.message) out.message = db.message;
  } else if (err instanceof Error && isQueryWrapper(err)) {
    out.message = 'Failed query (statement and parameters not logged)';
  } else {
    if (code) out.code = code;
    if (typeof e.message === 'string') out.message = e.message;
  }
  if (e.cause !== undefined && depth < 4) out.cause = loggableError(e.cause, depth + 1);
  const frames = depth === 0 && typeof e.stack === 'string' ? e.stack.split('\n').filter((l) => /^\s+at /.test(l)) : [];
  if (frames.length) out.stack = frames.map((l) => l.trim()).join('\n');
  return out;
}

/** Drizzle's wrapper of a driver error: its message is `Failed query: <sql>\nparams: <values>`. */
function isQueryWrapper(err: Error): boolean {
  return /^Failed query:/.test(err.message) || 'params' in err;
}
