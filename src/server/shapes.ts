// TypeBox building blocks shared by every domain's schema.ts, written to produce the same JSON
// Schema keywords as the Dispatch contract (nullable, exclusive bounds, name rule, formats).
import { Type, type Static, type TSchema, type SchemaOptions } from '@sinclair/typebox';

export const MAX_ID = 2147483647;

/** `T` or null, written the way the contract writes it (`nullable: true`). */
export const Nullable = <T extends TSchema>(schema: T) =>
  // An enum lists null too: Ajv checks `enum` apart from `nullable`, and read objects sent back hold null.
  Type.Unsafe<Static<T> | null>({ ...schema, ...(Array.isArray(schema.enum) ? { enum: [...schema.enum, null] } : {}), nullable: true });

/** An optional, nullable field. */
export const Opt = <T extends TSchema>(schema: T) => Type.Optional(Nullable(schema));

/**
 * A field with a `default`: optional on the wire, as in the contract (Ajv's useDefaults fills it in
 * before validation), and so always present, hence typed as required, in the handler.
 */
export const Defaulted = <T extends TSchema>(schema: T) => Type.Optional(schema) as unknown as T;

export const Id = (opts: SchemaOptions = {}) => Type.Integer({ exclusiveMinimum: 0, exclusiveMaximum: MAX_ID, ...opts });

/** Names: trimmed, at least 3 characters, not blank. */
export const NameStr = (opts: SchemaOptions = {}) => Type.String({ minLength: 3, pattern: '^(?!\\s*$).+', ...opts });
export const Email = (opts: SchemaOptions = {}) => Type.String({ format: 'email', ...opts });
export const Color = () => Type.String({ format: 'color' });
export const DateTime = () => Type.String({ format: 'date-time' });

export const OrganizationSlug = Type.String({ minLength: 3, pattern: '^[\\w]+(?:_[\\w]+)*$' });

/** Path parameters of a route under /{organization}, plus the named record ids. */
export const OrgParams = <K extends string = never>(...ids: K[]) =>
  Type.Object({
    organization: OrganizationSlug,
    ...(Object.fromEntries(ids.map((k) => [k, Type.Integer({ minimum: 0, maximum: MAX_ID })])) as Record<K, ReturnType<typeof Type.Integer>>),
  });

export const IdParams = <K extends string>(...ids: K[]) =>
  Type.Object(Object.fromEntries(ids.map((k) => [k, Type.Integer({ minimum: 0, maximum: MAX_ID })])) as Record<K, ReturnType<typeof Type.Integer>>);

/** The list query parameters every list operation takes (page 0 reads as 1, -2 as "all"). */
export const ListQuery = Type.Object({
  page: Defaulted(Type.Integer({ default: 1, minimum: 0, maximum: MAX_ID })),
  itemsPerPage: Defaulted(Type.Integer({ default: 5, minimum: -2, maximum: MAX_ID })),
  q: Type.Optional(Type.String({ minLength: 1, pattern: '^[ -~]+$' })),
  filter: Defaulted(Type.String({ default: '', format: 'json-string' })),
  'sortBy[]': Defaulted(Type.Array(Type.String(), { default: [] })),
  'descending[]': Defaulted(Type.Array(Type.Boolean(), { default: [] })),
});
export type ListQueryT = Static<typeof ListQuery>;

export const IncludeQuery = Type.Object({ 'include[]': Defaulted(Type.Array(Type.String(), { default: [] })) });

/** `{items, itemsPerPage, page, total}`: all four keys, a superset of every Dispatch version. */
export const Pagination = <T extends TSchema>(item: T, title: string) =>
  Type.Object(
    {
      items: Type.Array(item, { default: [] }),
      itemsPerPage: Type.Integer(),
      page: Type.Integer(),
      total: Type.Integer(),
    },
    { title },
  );

/** Delete, join, subscribe and report operations answer 200 with a null body. */
export const NullResponse = Type.Null();

/**
 * Another record named inside a request body: the contract's fields, none required, extra ones
 * ignored, so `{"id": 3}`, `{"name": "Cloud"}` and a whole read object all work.
 */
export const RefShape = <T extends TSchema>(schema: T) => Type.Partial(schema, { additionalProperties: true }) as unknown as T;

/** The schema without these keywords at any depth (field names inside `properties` are kept). */
export function withoutKeywords<T>(schema: T, keywords: string[]): T {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) {
      if (!keywords.includes(k)) out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as object).map(([f, s]) => [f, strip(s)])) : strip(v);
    }
    return out;
  };
  return strip(schema) as T;
}

/** The schema with no field required at any depth (a record named by any part of its read object). */
export const withoutRequired = <T>(schema: T): T => withoutKeywords(schema, ['required']);
