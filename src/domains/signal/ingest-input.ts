// What an ingestion request brings, checked before any database work: the size and depth of `raw`,
// and the client's idempotency key.
import type { Ctx } from '../../server/context.ts';
import { errors, validationError } from '../../server/errors.ts';

/** Deeper `raw` documents are refused (422): PostgreSQL and the extraction walk would choke on them. */
export const MAX_RAW_DEPTH = 64;
const IDEMPOTENCY_KEY_MAX = 255;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export interface IngestBody {
  project?: { id?: number | null; name?: unknown } | null;
  raw: Record<string, unknown>;
  created_at?: string;
}

/** The deepest nesting of arrays and objects in `value`, counting stops past `limit`. */
function depthOf(value: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length) {
    const [v, d] = stack.pop()!;
    if (v === null || typeof v !== 'object') continue;
    if (d + 1 > max) max = d + 1;
    if (max > limit) return max;
    for (const child of Array.isArray(v) ? v : Object.values(v)) if (child !== null && typeof child === 'object') stack.push([child, d + 1]);
  }
  return max;
}

/** `raw` as JSON text, once checked: no deeper than MAX_RAW_DEPTH (422), no larger than MUSTER_SIGNAL_RAW_LIMIT (413). */
export function checkRaw(ctx: Ctx, raw: Record<string, unknown>): string {
  // Depth first, with a walk of its own: JSON.stringify recurses, and a deep enough document overflows it.
  if (depthOf(raw, MAX_RAW_DEPTH) > MAX_RAW_DEPTH) {
    throw validationError([
      { loc: ['body', 'raw'], msg: `raw is nested deeper than ${MAX_RAW_DEPTH} levels`, type: 'value_error.raw.depth', ctx: { limit_value: MAX_RAW_DEPTH } },
    ]);
  }
  const text = JSON.stringify(raw);
  const limit = ctx.settings.signalRawLimit;
  // Characters never outnumber bytes: the byte count is needed only near the limit.
  const size = text.length * 3 > limit ? Buffer.byteLength(text) : text.length;
  if (size > limit) throw errors.tooLarge(`The signal instance's raw document is ${size} bytes; the limit is ${limit} bytes.`);
  return text;
}

/** The client's key for this instance: the Idempotency-Key header, else raw.id when it is a UUID. */
export function idempotencyKeyOf(header: unknown, raw: Record<string, unknown>): string | undefined {
  if (typeof header === 'string' && header.trim() !== '') {
    const key = header.trim();
    if (key.length > IDEMPOTENCY_KEY_MAX) {
      throw validationError([
        {
          loc: ['header', 'idempotency-key'],
          msg: `ensure this value has at most ${IDEMPOTENCY_KEY_MAX} characters`,
          type: 'value_error.any_str.max_length',
          ctx: { limit_value: IDEMPOTENCY_KEY_MAX },
        },
      ]);
    }
    return key;
  }
  return typeof raw.id === 'string' && UUID.test(raw.id) ? raw.id.toLowerCase() : undefined;
}
