import { describe, expect, it } from 'vitest';
import { SignalCreate, SignalFilterCreate, SignalUpdate } from '../../../../src/app/ui-shapes.ts';
import { definitionBody, emptyDefinition } from './definition-body.ts';
import { filterBody } from './filter-body.ts';
import { bodyResolver, referencesById } from './form-body.ts';

const options = { fields: {}, shouldUseNativeValidation: false } as never;

describe('signal forms checked against the API’s shapes', () => {
  it('submits a filter body the shape accepts, and names the fields it refuses', async () => {
    const resolve = bodyResolver(SignalFilterCreate, filterBody);
    const values = {
      name: 'Quiet db',
      description: '',
      project: { id: 1, name: 'default' },
      action: 'snooze',
      mode: 'active',
      window: 600,
      expiration: '',
      expression: '[]',
    };
    const ok = await resolve(values as never, undefined, options);
    expect(ok.errors).toEqual({});
    expect(ok.values).toMatchObject({ name: 'Quiet db', expression: [], project: { id: 1 } });
    const bad = await resolve({ ...values, name: 'ab', expression: '{' } as never, undefined, options);
    expect(Object.keys(bad.errors)).toEqual(['expression']);
    const short = await resolve({ ...values, name: 'ab' } as never, undefined, options);
    expect(Object.keys(short.errors)).toEqual(['name']);
  });

  it('a definition needs its name, owner and external id; an update sends every list', async () => {
    const create = bodyResolver(SignalCreate, (v: ReturnType<typeof emptyDefinition>) => definitionBody(v));
    const empty = await create(emptyDefinition({ id: 1, name: 'default' }) as never, undefined, options);
    expect(Object.keys(empty.errors).sort()).toEqual(['external_id', 'name', 'owner']);
    const filled = {
      ...emptyDefinition({ id: 1, name: 'default' }),
      name: 'Login burst',
      owner: 'secops',
      external_id: 'login-burst',
      filters: [{ id: 4, name: 'f' }],
    };
    expect((await create(filled as never, undefined, options)).values).toMatchObject({ project: { id: 1 }, filters: [{ id: 4 }], enabled: true });
    const update = bodyResolver(SignalUpdate, (v: typeof filled) => definitionBody(v, 7));
    const res = await update(filled as never, undefined, options);
    expect(res.errors).toEqual({});
    const body = res.values;
    expect(body).toMatchObject({ id: 7, variant: null, tags: [], entity_types: [], filters: [{ id: 4 }], case_type: null });
    expect(body).toHaveProperty('project', { id: 1 });
  });
});

describe('references by id', () => {
  it('keeps the body’s own fields and cuts each named record to its id and name', () => {
    const cut = referencesById(SignalCreate) as unknown as {
      properties: Record<string, { properties?: object; items?: { properties: object }; type: string }>;
    };
    expect(cut.properties.name).toEqual(SignalCreate.properties.name);
    expect(Object.keys(cut.properties.source.properties ?? {})).toEqual(['id', 'name']);
    expect(Object.keys(cut.properties.filters.items?.properties ?? {})).toEqual(['id', 'name']);
    // Small enough to compile on every check.
    expect(JSON.stringify(cut).length).toBeLessThan(20_000);
  });
});
