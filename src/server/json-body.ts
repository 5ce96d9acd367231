// The JSON body parser: an empty body reads as no body (clients send Content-Type on DELETE too),
// and malformed JSON is a 422 naming the character where parsing stopped, as Dispatch answers.
import type { FastifyInstance } from 'fastify';
import { validationError } from './errors.ts';

export function installJsonBody(app: FastifyInstance) {
  app.removeContentTypeParser(['application/json']);
  app.addContentTypeParser(/^application\/([\w.+-]+\+)?json$/, { parseAs: 'string' }, (_req, body, done) => {
    const text = body as string;
    if (text.trim() === '') return done(null, undefined);
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
 * A signal instance's `raw` document is data, stored as sent.
 */
export function trimStrings(value: unknown, key?: string): unknown {
  if (key === 'raw') return value;
  if (typeof value === 'string') return key === 'password' ? value : value.trim();
  if (Array.isArray(value)) return value.map((v) => trimStrings(v));
  if (value && typeof value === 'object') {
    const obj = value as Record<string, unknown>;
    for (const k of Object.keys(obj)) obj[k] = trimStrings(obj[k], k);
  }
  return value;
}
