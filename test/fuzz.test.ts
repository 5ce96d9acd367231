// A schema-driven fuzz of every operation: Muster's own OpenAPI document (generated from the route
// schemas) lists each operation with its path, query and body schemas; every operation gets
// malformed and boundary values in each of them (strings for numbers, 1e309, -1, 0, 2^31, huge
// strings, deep nesting, nulls, wrong types, unknown enum values, arrays for objects, no body,
// invalid JSON), sent by the Owner of `default`. No answer may be a 5xx. The generator is seeded,
// so every run sends the same requests; failures are collected and reported together.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, register, type TestApp } from './helpers.ts';

let t: TestApp;
let token: string;
beforeAll(async () => {
  t = await createTestApp();
  token = await register(t.app, 'owner@example.com');
  // A few records for ids to find: an incident, a case, a signal definition.
  await call(t.app, 'POST', '/default/incidents', { token, body: { title: 'Fuzzed', description: 'Fuzzed.' } });
  await call(t.app, 'POST', '/default/cases', { token, body: { title: 'Fuzzed', description: 'Fuzzed.' } });
});
afterAll(() => t.close());

/** mulberry32: a small seeded generator, so every run sends the same requests. */
function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let x = a;
    x = Math.imul(x ^ (x >>> 15), x | 1);
    x ^= x + Math.imul(x ^ (x >>> 7), x | 61);
    return ((x ^ (x >>> 14)) >>> 0) / 4294967296;
  };
  return { next, pick: <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] };
}

interface Schema {
  type?: string;
  enum?: unknown[];
  format?: string;
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  minLength?: number;
  nullable?: boolean;
}
interface Parameter {
  in: 'path' | 'query' | 'header';
  name: string;
  schema: Schema;
}
interface Operation {
  method: string;
  path: string;
  parameters: Parameter[];
  body?: Schema;
}

/** Stands for the JSON number 1e309 (Infinity once parsed), which JSON.stringify cannot write. */
const HUGE_NUMBER = '\u0000fuzz:1e309\u0000';
const deep = (levels: number): unknown => {
  let v: unknown = 'bottom';
  for (let i = 0; i < levels; i++) v = i % 2 ? { d: v } : [v];
  return v;
};

/** Malformed and boundary values for a body field. */
const BODY_VALUES: unknown[] = [
  null,
  'not a number',
  '',
  ' ',
  HUGE_NUMBER,
  '1e309',
  -1,
  0,
  2 ** 31,
  -(2 ** 31) - 1,
  2 ** 53 + 1,
  1.5,
  true,
  {},
  [],
  [null],
  [{}],
  { id: 2 ** 31 },
  { id: -1 },
  { id: '1e309' },
  { name: null },
  'x'.repeat(20_000),
  '\u0000',
  'Ünïcødé ✓ \ud83d',
  'not-an-enum-member',
  `${'a_'.repeat(40)}!`,
  '2026-13-45T99:99:99Z',
  '9999-12-31T23:59:59Z',
  '-271821-04-19T00:00:00Z',
  deep(60),
  deep(200),
  JSON.parse('{"__proto__": {"admin": true}, "constructor": {"prototype": {}}}'),
];

/** Malformed and boundary values for a path or query parameter (as sent in the URL). */
const URL_VALUES = ['1e309', '-1', '0', '2147483648', '2147483647', '9'.repeat(40), 'abc', '', ' ', '1.5', '0x10', 'true', 'null', '%00', 'x'.repeat(3000)];
const Q_VALUES = [`${'-'.repeat(40)}word`, '('.repeat(200), ')(', '"', 'or or or', '!:*&|<->', Array.from({ length: 300 }, (_, i) => `w${i}`).join(' ')];
const FILTER_VALUES = [
  '{',
  '[]',
  'null',
  '"x"',
  JSON.stringify(deep(300)),
  JSON.stringify(deep(40)),
  JSON.stringify({ field: 'id', op: 'in', value: [[1]] }),
  JSON.stringify({ field: 'id', op: '==', value: 1e308 * 10 }),
  '{"field":"id","op":"==","value":1e309}',
  JSON.stringify({ field: 'created_at', op: '>', value: '-271821-04-19' }),
  JSON.stringify({ field: 'name', op: 'like', value: { a: 1 } }),
  JSON.stringify({ and: [{ not: [{ or: [{ field: 'id', value: 1 }] }] }] }),
  JSON.stringify({ model: 'Nope', field: 'id', value: 1 }),
];

/** Field and relation names for sortBy[] and include[]. */
const NAME_VALUES = ['', '.', 'a.b.c.d', 'project.name', 'incident.project.organization.name', '__proto__', 'constructor', 'id;drop', 'name', 'x'.repeat(600)];

/** A plausible value for a schema: the starting point a request mutates one field of. */
function sample(schema: Schema | undefined, depth = 0): unknown {
  if (!schema) return null;
  const s = schema.anyOf?.[0] ?? schema.oneOf?.[0] ?? schema;
  if (s.enum) return s.enum.find((e) => e !== null) ?? null;
  switch (s.type) {
    case 'object': {
      if (depth > 2) return {};
      const out: Record<string, unknown> = {};
      for (const [k, v] of Object.entries(s.properties ?? {})) out[k] = sample(v, depth + 1);
      return out;
    }
    case 'array':
      return [];
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'string':
      if (s.format === 'email') return 'fuzz@example.com';
      if (s.format === 'date-time') return '2026-01-02T03:04:05Z';
      if (s.format === 'color') return '#abcdef';
      if (s.format === 'json-string') return '[]';
      return 'Fuzz value';
    default:
      return null;
  }
}

/** Every field path of an object schema, nested objects included (two levels). */
function fieldPaths(schema: Schema | undefined, prefix: string[] = [], depth = 0): string[][] {
  const s = schema?.anyOf?.[0] ?? schema;
  if (!s?.properties || depth > 2) return [];
  return Object.entries(s.properties).flatMap(([k, v]) => [[...prefix, k], ...fieldPaths(v, [...prefix, k], depth + 1)]);
}

function setPath(obj: unknown, path: string[], value: unknown) {
  let node = obj as Record<string, unknown>;
  for (const k of path.slice(0, -1)) {
    if (!node[k] || typeof node[k] !== 'object' || Array.isArray(node[k])) node[k] = {};
    node = node[k] as Record<string, unknown>;
  }
  node[path.at(-1)!] = value;
}

const bodyText = (body: unknown) => JSON.stringify(body).replaceAll(JSON.stringify(HUGE_NUMBER), '1e309');

interface Request {
  method: string;
  url: string;
  raw?: string;
  contentType?: string;
}

/** The requests of one operation: each one malformed in one place, the rest plausible. */
function requestsOf(op: Operation, random: ReturnType<typeof rng>, perOperation: number): Request[] {
  const pathParams = op.parameters.filter((p) => p.in === 'path');
  const queryParams = op.parameters.filter((p) => p.in === 'query');
  const validPath = (overrides: Record<string, string> = {}) =>
    op.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(overrides[name] ?? (name === 'organization' ? 'default' : '1')));
  const query = (params: Record<string, string>) => {
    const qs = new URLSearchParams(params).toString();
    return qs ? `?${qs}` : '';
  };
  const hasBody = op.method === 'post' || op.method === 'put' || op.method === 'patch';
  const base = () => sample(op.body);
  const withBody = (url: string, raw?: string, contentType?: string): Request => ({ method: op.method.toUpperCase(), url, raw, contentType });
  const plainBody = () => (hasBody ? bodyText(base()) : undefined);

  // The operation as a client would call it: ids 1, the body plausible.
  const out: Request[] = [withBody(validPath(), plainBody())];
  // Each path parameter with malformed values (1e309 always, four more drawn).
  for (const p of pathParams) {
    const values =
      p.name === 'organization' ? ['nope', 'ab', 'x'.repeat(400), '1e309'] : ['1e309', ...Array.from({ length: 4 }, () => random.pick(URL_VALUES))];
    for (const v of values) out.push(withBody(validPath({ [p.name]: v }), plainBody()));
  }
  // The body as a whole.
  if (hasBody) {
    for (const raw of ['', '{', 'null', '[]', '"text"', '1e309', `{"title": ${'['.repeat(6000)}${']'.repeat(6000)}}`, bodyText({ raw: deep(100) })])
      out.push(withBody(validPath(), raw));
    out.push(withBody(validPath(), '{}', 'text/plain'));
  }
  // One query parameter or one body field at a time, chosen by the generator.
  const fields = fieldPaths(op.body);
  for (let i = 0; i < perOperation; i++) {
    if (queryParams.length && (!fields.length || random.next() < 0.4)) {
      const p = random.pick(queryParams);
      const pool =
        p.name === 'q'
          ? [...Q_VALUES, ...URL_VALUES]
          : p.name === 'filter'
            ? [...FILTER_VALUES, ...URL_VALUES]
            : p.name.endsWith('[]')
              ? [...NAME_VALUES, ...URL_VALUES]
              : URL_VALUES;
      const v = random.pick(pool);
      const params: Record<string, string> = { [p.name]: v };
      if (p.name === 'sortBy[]') params['descending[]'] = 'true';
      out.push(withBody(validPath() + query(params), plainBody()));
    } else if (fields.length) {
      const body = base();
      // Mostly one field, sometimes three at once.
      for (let n = random.next() < 0.25 ? 3 : 1; n > 0; n--) setPath(body, random.pick(fields), random.pick(BODY_VALUES));
      out.push(withBody(validPath(), bodyText(body)));
    }
  }
  return out;
}

/** Random requests per operation; FUZZ_ROUNDS=100 (say) searches deeper, in a longer run. */
const ROUNDS = Number(process.env.FUZZ_ROUNDS ?? 8);
/** FUZZ_SEED=n draws other requests. */
const SEED = Number(process.env.FUZZ_SEED ?? 20260101);

describe('fuzz', () => {
  it('answers no 5xx to malformed or boundary input on any operation', async () => {
    const doc = (await call(t.app, 'GET', '/docs/openapi.json')).body as {
      paths: Record<string, Record<string, { parameters?: Parameter[]; requestBody?: { content?: Record<string, { schema: Schema }> } }>>;
    };
    const operations: Operation[] = Object.entries(doc.paths).flatMap(([path, methods]) =>
      Object.entries(methods).map(([method, op]) => ({
        method,
        path: path.replace(/^\/api\/v1/, ''),
        parameters: op.parameters ?? [],
        body: op.requestBody?.content?.['application/json']?.schema,
      })),
    );
    expect(operations.length).toBeGreaterThan(150);
    // Deletes last, so the records they remove are there for the other operations first; the
    // project's (with everything in it) last of all.
    const rank = (op: Operation) => (op.method !== 'delete' ? 0 : op.path.includes('/projects/') ? 2 : 1);
    operations.sort((a, b) => rank(a) - rank(b));

    const random = rng(SEED);
    const failures: string[] = [];
    let sent = 0;
    for (const op of operations) {
      for (const r of requestsOf(op, random, ROUNDS)) {
        sent++;
        const headers: Record<string, string> = { authorization: `Bearer ${token}` };
        if (r.raw !== undefined) headers['content-type'] = r.contentType ?? 'application/json';
        const res = await t.app.inject({ method: r.method as never, url: `/api/v1${r.url}`, headers, payload: r.raw });
        if (res.statusCode >= 500) {
          failures.push(`${res.statusCode} ${r.method} ${r.url.slice(0, 200)} ${(r.raw ?? '').slice(0, 300)} -> ${res.body.slice(0, 200)}`);
        }
      }
    }
    expect(sent).toBeGreaterThan(2500);
    expect(failures).toEqual([]);
  }, 300_000);
});
