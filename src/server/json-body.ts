// The JSON body parser: an empty body reads as no body (clients send Content-Type on DELETE too),
// malformed JSON is a 422 naming the character where parsing stopped, as Dispatch answers, and a
// body nested deeper than MAX_JSON_DEPTH is a 422 before anything walks it.
import type { FastifyInstance } from 'fastify';
import { validationError } from './errors.ts';

/**
 * The deepest nesting of arrays and objects a JSON request body (or the `filter` query parameter)
 * may have. No client shape comes near it (a signal instance's `raw`, the deepest, stops at 64);
 * deeper documents would overflow the stack of whatever walks them recursively (JSON.stringify,
 * the trimming below, PostgreSQL's jsonb), so they are refused before being parsed.
 */
export const MAX_JSON_DEPTH = 128;

/**
 * Where `text`, read as JSON, first opens its (limit + 1)th level of nesting, else -1. One pass
 * over the characters, no recursion: brackets inside strings do not count. Malformed text is the
 * parser's business; this only bounds the depth.
 */
export function jsonDepthPast(text: string, limit: number = MAX_JSON_DEPTH): number {
  // Only a text with more brackets than the limit can be deeper than it.
  if (text.length <= limit) return -1;
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22) {
      // Skip the string: to the next quote not escaped by a backslash.
      for (i++; i < text.length; i++) {
        const s = text.charCodeAt(i);
        if (s === 0x5c) i++;
        else if (s === 0x22) break;
      }
    } else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return i;
    } else if (c === 0x5d || c === 0x7d) {
      depth--;
    }
  }
  return -1;
}

/** The 422 of a JSON document nested past MAX_JSON_DEPTH, at `loc`. */
export const tooDeep = (loc: (string | number)[], what: string) =>
  validationError([
    { loc, msg: `${what} is nested deeper than ${MAX_JSON_DEPTH} levels`, type: 'value_error.json.depth', ctx: { limit_value: MAX_JSON_DEPTH } },
  ]);

export function installJsonBody(app: FastifyInstance) {
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(/^application\/([\w.+-]+\+)?json$/, { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
    if (jsonDepthPast(text) >= 0) return done(tooDeep(['body'], 'The request body'), undefined);
    try {
      done(null, JSON.parse(text));
    } catch (e) {
      const msg = (e as Error).message;
      const pos = Number(/position (\d+)/.exec(msg)?.[1] ?? text.length);
      done(validationError([{ loc: ['body', pos], msg: `Expecting value: ${msg}`, type: 'value_error.jsondecode' }]), undefined);
    }
  });
}

/**
 * Strings are trimmed before validation, as Dispatch's models do ("  ab " fails the 3-character rule).
 * A signal instance's `raw` document is data, stored as sent. Walks with a stack of its own, so no
 * body can exhaust the call stack whatever its depth.
 */
export function trimStrings(value: unknown): unknown {
  if (typeof value === 'string') return value.trim();
  const pending: unknown[] = [value];
  while (pending.length) {
    const node = pending.pop();
    if (!node || typeof node !== 'object') continue;
    if (Array.isArray(node)) {
      for (let i = 0; i < node.length; i++) {
        const v = node[i];
        if (typeof v === 'string') node[i] = v.trim();
        else if (v && typeof v === 'object') pending.push(v);
      }
      continue;
    }
    const obj = node as Record<string, unknown>;
    for (const k of Object.keys(obj)) {
      if (k === 'raw') continue;
      const v = obj[k];
      if (typeof v === 'string') {
        if (k !== 'password') obj[k] = v.trim();
      } else if (v && typeof v === 'object') pending.push(v);
    }
  }
  return value;
}
