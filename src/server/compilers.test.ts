import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, type TestApp } from '../../test/helpers.ts';
import { createRequire } from 'node:module';
import { SignalInstanceCreate } from '../domains/signal/schema.ts';
import { compileEverySchema, compilersFactory } from './compilers.ts';
import { ajvOptions } from './validation.ts';

type Validate = ((data: unknown) => boolean) & { errors?: unknown };
type Factory = (externalSchemas: unknown, options: unknown) => (route: object) => Validate;

describe('route schemas compiled on first use', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());

  it('every route schema compiles', () => {
    expect(() => compileEverySchema()).not.toThrow();
  });

  it('a route validates on its first request, with the contract error shape', async () => {
    const res = await t.app.inject({ method: 'POST', url: '/api/v1/default/auth/login', payload: { email: 42 } });
    expect(res.statusCode).toBe(422);
    expect(res.json().detail[0]).toMatchObject({ loc: expect.any(Array), type: expect.any(String) });
  });
});

describe('a body schema with large properties', () => {
  // The one validator of the whole body, as Fastify's compiler makes it, against the one Muster uses.
  const whole = (createRequire(createRequire(import.meta.url).resolve('fastify'))('@fastify/ajv-compiler') as () => Factory)()({}, ajvOptions);
  const apart = (compilersFactory!.buildValidator as unknown as Factory)({}, ajvOptions);
  const route = { schema: SignalInstanceCreate, method: 'POST', url: '/:organization/signals/instances', httpPart: 'body' };
  const run = (compile: ReturnType<Factory>, body: unknown) => {
    const validate = compile(route);
    const data = structuredClone(body);
    const valid = validate(data);
    const errors = ((validate.errors ?? []) as { instancePath: string; keyword: string }[]).map((e) => `${e.instancePath} ${e.keyword}`).sort();
    return { valid, data, errors };
  };

  it('checks, defaults and strips as one validator does, with errors at the same paths', () => {
    const bodies = [
      { project: { name: 'default' }, raw: { id: 'x', nested: { a: [1, 2] } } },
      { project: { name: 'default' }, raw: {}, case: { id: 3, title: 'sent back', unknown: 1 }, signal: { id: 4, name: 'n' }, extra: true },
      { project: { name: 'default' }, raw: {}, case: { id: 'not a number', status: 'Nonsense' } },
      { project: { id: 'one' }, raw: [], case: { id: 'not a number' }, signal: { id: -1 } },
      { raw: {}, case: null },
    ];
    for (const body of bodies) {
      const one = run(whole, body);
      const two = run(apart, body);
      expect(two).toEqual(one);
    }
    // The cases above fail on the large properties too, not only on the rest.
    expect(run(apart, bodies[2]).errors.some((e) => e.startsWith('/case/'))).toBe(true);
    expect(run(apart, bodies[0]).data).toMatchObject({ entities: [] });
  });
});
