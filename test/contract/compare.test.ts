// The contract comparison itself, tested: Dispatch's document compared with itself, and a small
// contract in Dispatch's style compared with routes written the way Muster writes them (TypeBox
// through @fastify/swagger), once faithfully and once with one defect of every kind.
import Fastify from 'fastify';
import swagger from '@fastify/swagger';
import { Type, type TSchema } from '@sinclair/typebox';
import { describe, expect, it } from 'vitest';
import { Defaulted, ListQuery, Nullable, Opt, OrgParams, Pagination } from '../../src/server/shapes.ts';
import { ajvOptions } from '../../src/server/validation.ts';
import { compareAll, loadContract } from './run.ts';
import type { Json } from './schema.ts';

describe('Dispatch document compared with itself', () => {
  it('differs only where its parameter lists leave out a path parameter of the URL', () => {
    const contract = loadContract();
    const asServed: Json = structuredClone({
      ...contract,
      paths: Object.fromEntries(Object.entries<Json>(contract.paths).map(([p, v]) => [`/api/v1${p}`, v])),
    });
    // As Muster must write them: update bodies without defaults, lists apart (see compare.ts).
    for (const [name, schema] of Object.entries<Json>(asServed.components.schemas)) {
      if (!name.endsWith('Update')) continue;
      for (const prop of Object.values<Json>(schema.properties ?? {})) if (prop.type !== 'array') delete prop.default;
    }
    // The contract compared with itself serves none of Muster's extras.
    const r = compareAll(contract, asServed, [], []);
    expect(r.served.filter((s) => s.contractKey)).toHaveLength(207);
    // Get Me declares no parameter, Escalate only `organization` (BEHAVIOR §1): contract defects that
    // Muster's own declarations do not repeat.
    expect(r.mismatches.map((m) => `${m.op} ${m.kind}`)).toEqual([
      'GET /{organization}/auth/me path.names',
      'PUT /{organization}/cases/{case_id}/escalate path.names',
    ]);
  });
});

// ---- a contract in FastAPI's spelling ---------------------------------------------------------------

const id = { exclusiveMaximum: 2147483647, exclusiveMinimum: 0, type: 'integer' };
const listParams = [
  { in: 'query', name: 'page', required: false, schema: { default: 1, exclusiveMaximum: 2147483647, exclusiveMinimum: 0, type: 'integer' } },
  { in: 'query', name: 'itemsPerPage', required: false, schema: { default: 5, exclusiveMaximum: 2147483647, exclusiveMinimum: -2, type: 'integer' } },
  { in: 'query', name: 'q', required: false, schema: { minLength: 1, pattern: '^[ -~]+$', type: 'string' } },
  { in: 'query', name: 'filter', required: false, schema: { default: [], format: 'json-string', type: 'string' } },
  { in: 'query', name: 'sortBy[]', required: false, schema: { default: [], items: { type: 'string' }, type: 'array' } },
  { in: 'query', name: 'descending[]', required: false, schema: { default: [], items: { type: 'boolean' }, type: 'array' } },
];
const orgParam = { in: 'path', name: 'organization', required: true, schema: { minLength: 3, pattern: '^[\\w]+(?:_[\\w]+)*$', type: 'string' } };
const json = (ref: string) => ({ content: { 'application/json': { schema: { $ref: `#/components/schemas/${ref}` } } } });

const contract: Json = {
  openapi: '3.0.2',
  components: {
    schemas: {
      ThingStatus: { enum: ['Active', 'Stable', 'Closed'], type: 'string' },
      ProjectRead: { properties: { id, name: { type: 'string' }, color: { nullable: true, type: 'string' } }, required: ['name'], type: 'object' },
      ThingCreate: {
        properties: {
          name: { minLength: 3, type: 'string' },
          description: { nullable: true, type: 'string' },
          // Pydantic 1's `owner: EmailStr = None`: accepts null, though the document does not say so.
          owner: { format: 'email', type: 'string' },
          status: { allOf: [{ $ref: '#/components/schemas/ThingStatus' }], default: 'Active' },
          tags: { default: [], items: { type: 'string' }, type: 'array' },
          project: { $ref: '#/components/schemas/ProjectRead' },
        },
        required: ['name', 'project'],
        type: 'object',
      },
      ThingUpdate: {
        properties: {
          name: { minLength: 3, type: 'string' },
          enabled: { default: true, type: 'boolean' },
          tags: { default: [], items: { type: 'string' }, type: 'array' },
        },
        required: ['name'],
        type: 'object',
      },
      ThingRead: {
        properties: {
          id,
          name: { type: 'string' },
          status: { $ref: '#/components/schemas/ThingStatus' },
          project: { $ref: '#/components/schemas/ProjectRead' },
        },
        type: 'object',
      },
      ThingPagination: {
        properties: { items: { items: { $ref: '#/components/schemas/ThingRead' }, type: 'array' }, total: { type: 'integer' } },
        type: 'object',
      },
    },
  },
  paths: {
    '/{organization}/things': {
      get: { tags: ['things'], parameters: [orgParam, ...listParams], responses: { '200': json('ThingPagination') } },
      post: { tags: ['things'], parameters: [orgParam], requestBody: { ...json('ThingCreate'), required: true }, responses: { '200': json('ThingRead') } },
    },
    '/{organization}/things/{thing_id}': {
      get: { tags: ['things'], parameters: [{ in: 'path', name: 'thing_id', required: true, schema: id }, orgParam], responses: { '200': json('ThingRead') } },
      put: {
        tags: ['things'],
        parameters: [{ in: 'path', name: 'thing_id', required: true, schema: id }, orgParam],
        requestBody: { ...json('ThingUpdate'), required: true },
        responses: { '200': json('ThingRead') },
      },
      delete: {
        tags: ['things', 'things'],
        parameters: [{ in: 'path', name: 'thing_id', required: true, schema: id }, orgParam],
        responses: { '200': { content: { 'application/json': { schema: {} } } } },
      },
    },
    '/{organization}/others': { get: { tags: ['others'], parameters: [orgParam], responses: { '200': json('ThingRead') } } },
  },
};

// ---- the same, as Muster would write it ------------------------------------------------------------

const Status = Type.Union([Type.Literal('Active'), Type.Literal('Stable'), Type.Literal('Closed')]);
const ProjectRef = Type.Object(
  { id: Type.Optional(Type.Integer({ exclusiveMinimum: 0, exclusiveMaximum: 2147483647 })), name: Type.Optional(Type.String()) },
  { additionalProperties: true },
);
const ThingCreate = Type.Object(
  {
    name: Type.String({ minLength: 3 }),
    description: Opt(Type.String()),
    owner: Opt(Type.String({ format: 'email' })),
    status: Type.Optional(Type.Union([Type.Literal('Active'), Type.Literal('Stable'), Type.Literal('Closed')], { default: 'Active' })),
    tags: Defaulted(Type.Array(Type.String(), { default: [] })),
    project: ProjectRef,
  },
  { additionalProperties: false },
);
// An omitted `enabled` keeps its value (no default); an omitted `tags` list becomes [] as in Dispatch.
const ThingUpdate = Type.Object(
  { name: Type.String({ minLength: 3 }), enabled: Type.Optional(Type.Boolean()), tags: Defaulted(Type.Array(Type.String(), { default: [] })) },
  { additionalProperties: false },
);
const ProjectRead = Type.Object({ id: Type.Integer(), name: Type.String(), color: Nullable(Type.String()), default: Type.Boolean() });
const ThingRead = Type.Object({ id: Type.Integer(), name: Type.String(), status: Status, project: ProjectRead, created_at: Type.String() });

interface Variant {
  listQuery?: TSchema;
  create?: TSchema;
  update?: TSchema;
  read?: TSchema;
  idName?: string;
  extraRoute?: boolean;
  hiddenRoute?: boolean;
}

async function served(v: Variant = {}) {
  const app = Fastify({ logger: false, ajv: ajvOptions });
  await app.register(swagger, { openapi: { info: { title: 't', version: '0' } } });
  const routes: { method: string; url: string }[] = [];
  app.addHook('onRoute', (r) => {
    for (const m of ([] as string[]).concat(r.method)) routes.push({ method: m, url: r.url });
  });
  const idName = v.idName ?? 'thing_id';
  const read = v.read ?? ThingRead;
  await app.register(
    async (api) => {
      api.get(
        '/:organization/things',
        { schema: { tags: ['things'], params: OrgParams(), querystring: v.listQuery ?? ListQuery, response: { 200: Pagination(read, 'ThingPagination') } } },
        async () => null,
      );
      api.post(
        '/:organization/things',
        { schema: { tags: ['things'], params: OrgParams(), body: v.create ?? ThingCreate, response: { 200: read } } },
        async () => null,
      );
      api.get(`/:organization/things/:${idName}`, { schema: { tags: ['things'], params: OrgParams(idName), response: { 200: read } } }, async () => null);
      api.put(
        `/:organization/things/:${idName}`,
        { schema: { tags: ['things'], params: OrgParams(idName), body: v.update ?? ThingUpdate, response: { 200: read } } },
        async () => null,
      );
      api.delete(
        `/:organization/things/:${idName}`,
        { schema: { tags: ['things'], params: OrgParams(idName), response: { 200: Type.Null() } } },
        async () => null,
      );
      if (v.extraRoute) api.get('/:organization/things/export', { schema: { params: OrgParams() } }, async () => null);
      if (v.hiddenRoute) api.get('/:organization/others', { schema: { hide: true, params: OrgParams() } }, async () => null);
    },
    { prefix: '/api/v1' },
  );
  await app.ready();
  const doc = app.swagger() as Json;
  await app.close();
  return compareAll(contract, doc, routes, []);
}

const listed = (r: Awaited<ReturnType<typeof served>>) => r.mismatches.map((m) => `${m.op} [${m.kind}] ${m.where}`).sort();

describe('contract comparison', () => {
  it('finds nothing to report when the routes follow the contract', async () => {
    const r = await served();
    expect(listed(r)).toEqual([]);
    expect(r.served.filter((s) => s.contractKey)).toHaveLength(5);
    // The list parameters' deliberate deviations are allowed, not ignored.
    expect(r.allowed.map((a) => `${a.mismatch.kind} ${a.mismatch.where}`).sort()).toEqual([
      'path.bounds path thing_id',
      'path.bounds path thing_id',
      'path.bounds path thing_id',
      'query.bounds query itemsPerPage',
      'query.bounds query page',
      'query.default query filter',
    ]);
    expect(r.tags).toEqual(
      expect.arrayContaining([
        { tag: 'things', served: 5, total: 5 },
        { tag: 'others', served: 0, total: 1 },
      ]),
    );
  });

  it('reports every kind of difference', async () => {
    const { 'sortBy[]': _, ...rest } = ListQuery.properties;
    const r = await served({
      // `page` written required although it has a default; `descending[]` no longer an array.
      listQuery: Type.Object({ ...rest, page: Type.Integer({ default: 1 }), 'descending[]': Type.String({ default: '' }) }),
      create: Type.Object(
        {
          name: Type.Optional(Nullable(Type.String({ minLength: 1 }))),
          description: Type.String(),
          status: Type.Optional(Type.Union([Type.Literal('Active'), Type.Literal('Closed')], { default: 'Closed' })),
          project: Type.Object({ id: Type.Integer(), name: Type.Optional(Type.String()) }),
          colour: Type.Optional(Type.String()),
        },
        { additionalProperties: false },
      ),
      update: Type.Object(
        { name: Type.String({ minLength: 3 }), enabled: Type.Optional(Type.Boolean({ default: true })), tags: Type.Optional(Type.Array(Type.String())) },
        { additionalProperties: false },
      ),
      read: Type.Object({ id: Type.Integer(), name: Type.Integer(), status: Type.String(), project: Type.Object({ id: Type.Integer() }) }),
      idName: 'id',
      extraRoute: true,
      hiddenRoute: true,
    });
    expect(listed(r)).toEqual(
      [
        'GET /{organization}/others [operation.undocumented] operation',
        'GET /{organization}/things [query.array] query descending[]',
        'GET /{organization}/things [query.bounds] query page',
        'GET /{organization}/things [query.missing] query sortBy[]',
        'GET /{organization}/things [query.required] query page',
        'GET /{organization}/things [response.enum] response.items[].status',
        'GET /{organization}/things [response.missing] response.items[].project',
        'GET /{organization}/things [response.type] response.items[].name',
        'GET /{organization}/things/export [operation.unknown] operation',
        'GET /{organization}/things/{thing_id} [path.names] path',
        'GET /{organization}/things/{thing_id} [response.enum] response.status',
        'GET /{organization}/things/{thing_id} [response.missing] response.project',
        'GET /{organization}/things/{thing_id} [response.type] response.name',
        'DELETE /{organization}/things/{thing_id} [path.names] path',
        'PUT /{organization}/things/{thing_id} [path.names] path',
        'PUT /{organization}/things/{thing_id} [body.default] body.enabled',
        'PUT /{organization}/things/{thing_id} [body.default] body.tags',
        'PUT /{organization}/things/{thing_id} [response.enum] response.status',
        'PUT /{organization}/things/{thing_id} [response.missing] response.project',
        'PUT /{organization}/things/{thing_id} [response.type] response.name',
        'POST /{organization}/things [body.bounds] body.name',
        'POST /{organization}/things [body.default] body.status',
        'POST /{organization}/things [body.enum] body.status',
        'POST /{organization}/things [body.extra] body.colour',
        'POST /{organization}/things [body.missing] body.project.color',
        'POST /{organization}/things [body.missing] body.tags',
        'POST /{organization}/things [body.nullable] body.description',
        'POST /{organization}/things [body.nullable] body.name',
        'POST /{organization}/things [body.missing] body.owner',
        'POST /{organization}/things [body.required] body',
        'POST /{organization}/things [body.required] body.project',
        'POST /{organization}/things [response.enum] response.status',
        'POST /{organization}/things [response.missing] response.project',
        'POST /{organization}/things [response.type] response.name',
      ].sort(),
    );
  });
});
