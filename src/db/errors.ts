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
