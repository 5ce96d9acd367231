// Reading OpenAPI 3.0 schemas the same way on both sides of the comparison: Dispatch's document
// (FastAPI: $ref, allOf around enum refs, `nullable`) and Muster's (TypeBox via @fastify/swagger:
// inlined objects, anyOf of consts for unions, `nullable` or a `null` branch).

export type Json = Record<string, any>;

/** One schema reduced to what the contract checks look at. */
export interface Shape {
  /** JSON types other than null, sorted; empty when the schema does not say. */
  types: string[];
  nullable: boolean;
  /** Allowed values, sorted, when the schema is an enumeration (null left out). */
  enum?: unknown[];
  /** Object properties, unresolved (resolve each with `shape`). */
  props?: Record<string, Json>;
  required: string[];
  /** Whether unlisted object properties are kept (`additionalProperties: true` or a schema). */
  open: boolean;
  /** The element schema of an array, unresolved. */
  items?: Json;
  hasDefault: boolean;
  default?: unknown;
  /** Validation bounds in one normal form: integer exclusive bounds become inclusive ones. */
  bounds: Record<string, unknown>;
  /** Names of the component schemas followed to get here (cycle guard, messages). */
  refs: string[];
}

const BOUND_KEYS = ['minLength', 'maxLength', 'pattern', 'format', 'minItems', 'maxItems', 'uniqueItems', 'multipleOf'];

export class SchemaReader {
  constructor(private readonly doc: Json) {}

  private deref(schema: Json, refs: string[]): Json {
    let s = schema;
    for (let guard = 0; s && typeof s.$ref === 'string' && guard < 50; guard++) {
      const ref: string = s.$ref;
      if (!ref.startsWith('#/')) throw new Error(`external $ref not supported: ${ref}`);
      const target = ref
        .slice(2)
        .split('/')
        .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'))
        .reduce<any>((o, k) => o?.[k], this.doc);
      if (!target) throw new Error(`unresolved $ref ${ref}`);
      refs.push(ref.split('/').at(-1)!);
      const { $ref: _, ...siblings } = s;
      s = { ...target, ...siblings };
    }
    return s;
  }

  /** Follows $refs and merges allOf members into one flat schema. */
  flatten(schema: Json | undefined, refs: string[] = []): Json {
    if (!schema || typeof schema !== 'object') return {};
    const s = this.deref(schema, refs);
    if (!Array.isArray(s.allOf)) return s;
    const { allOf, ...rest } = s;
    const out: Json = {};
    for (const member of allOf as Json[]) {
      const m = this.flatten(member, refs);
      for (const [k, v] of Object.entries(m)) {
        if (k === 'properties') out.properties = { ...out.properties, ...v };
        else if (k === 'required') out.required = [...new Set([...(out.required ?? []), ...v])];
        else if (!(k in out)) out[k] = v;
      }
    }
    // Keywords next to allOf (FastAPI puts `default` and `title` there) win over the members'.
    for (const [k, v] of Object.entries(rest)) {
      if (k === 'properties') out.properties = { ...out.properties, ...v };
      else if (k === 'required') out.required = [...new Set([...(out.required ?? []), ...v])];
      else out[k] = v;
    }
    return out;
  }

  shape(schema: Json | undefined): Shape {
    const refs: string[] = [];
    const s = this.flatten(schema, refs);
    // The schema of null alone: `type: 'null'`, `const: null`, or @fastify/swagger's OpenAPI 3.0
    // spelling of it, `{type: 'object', nullable: true, enum: [null]}`.
    const onlyNull =
      s.type === 'null' || ('const' in s && s.const === null) || (Array.isArray(s.enum) && s.enum.length > 0 && s.enum.every((v: unknown) => v === null));
    if (onlyNull) return { types: [], nullable: true, required: [], open: false, hasDefault: 'default' in s, default: s.default, bounds: {}, refs };
    const shape: Shape = { types: [], nullable: s.nullable === true, required: [], open: false, hasDefault: 'default' in s, bounds: {}, refs };
    if (shape.hasDefault) shape.default = s.default;

    const types = new Set<string>();
    const addType = (t: unknown) => {
      for (const x of ([] as unknown[]).concat(t ?? [])) {
        if (x === 'null') shape.nullable = true;
        else types.add(String(x));
      }
    };
    addType(s.type);

    let values: unknown[] | undefined;
    const addValues = (v: unknown[]) => {
      values ??= [];
      for (const x of v) {
        if (x === null) shape.nullable = true;
        else values.push(x);
      }
    };
    if (Array.isArray(s.enum)) addValues(s.enum);
    if ('const' in s) addValues([s.const]);

    let body = s;
    const union = (s.anyOf ?? s.oneOf) as Json[] | undefined;
    if (Array.isArray(union)) {
      const isNull = (b: Shape) => b.types.length === 0 && b.nullable && !b.enum && !b.props && !b.items;
      const branches = union.map((raw) => ({ raw, shape: this.shape(raw) }));
      const real = branches.filter((b) => !isNull(b.shape));
      if (real.length < branches.length) shape.nullable = true;
      for (const { shape: b } of real) {
        b.types.forEach(addType);
        if (b.nullable) shape.nullable = true;
      }
      if (real.length > 0 && real.every((b) => b.shape.enum)) for (const b of real) addValues(b.shape.enum!);
      // One real branch (`T | null`): its object or array structure, bounds and default are the schema's.
      if (real.length === 1) {
        body = this.flatten(real[0].raw, refs);
        Object.assign(shape.bounds, real[0].shape.bounds);
        if (!shape.hasDefault && real[0].shape.hasDefault) {
          shape.hasDefault = true;
          shape.default = real[0].shape.default;
        }
      }
    }

    if (body.properties || types.has('object') || body.type === 'object') {
      if (body.properties) shape.props = body.properties;
      if (body.properties || body.type === 'object') types.add('object');
      shape.required = [...(body.required ?? [])].sort();
      shape.open = body.additionalProperties === true || (typeof body.additionalProperties === 'object' && body.additionalProperties !== null);
      // An object schema with no properties and no additionalProperties keyword accepts anything.
      if (!body.properties && body.additionalProperties === undefined) shape.open = true;
    }
    if (body.items) {
      shape.items = body.items;
      types.add('array');
    }
    shape.types = [...types].sort();
    if (values?.length) shape.enum = [...new Set(values.map((v) => JSON.stringify(v)))].sort().map((v) => JSON.parse(v));

    Object.assign(shape.bounds, boundsOf(s, shape.types));
    return shape;
  }
}

/** min/max in one form: for integers, `exclusiveMinimum: 0` is `minimum: 1` (OpenAPI 3.0 boolean form too). */
function boundsOf(s: Json, types: string[]): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  const integer = types.length === 1 && types[0] === 'integer';
  const lower = (v: number, exclusive: boolean) => (exclusive ? (integer ? { minimum: v + 1 } : { exclusiveMinimum: v }) : { minimum: v });
  const upper = (v: number, exclusive: boolean) => (exclusive ? (integer ? { maximum: v - 1 } : { exclusiveMaximum: v }) : { maximum: v });
  if (typeof s.minimum === 'number') Object.assign(out, lower(s.minimum, s.exclusiveMinimum === true));
  if (typeof s.exclusiveMinimum === 'number') Object.assign(out, lower(s.exclusiveMinimum, true));
  if (typeof s.maximum === 'number') Object.assign(out, upper(s.maximum, s.exclusiveMaximum === true));
  if (typeof s.exclusiveMaximum === 'number') Object.assign(out, upper(s.exclusiveMaximum, true));
  for (const k of BOUND_KEYS) if (s[k] !== undefined) out[k] = s[k];
  return out;
}

/** `integer` satisfies `number`: a response may be narrower than the contract, a request wider. */
export function typesCover(wide: string[], narrow: string[]): boolean {
  if (wide.length === 0 || narrow.length === 0) return true;
  return narrow.every((t) => wide.includes(t) || (t === 'integer' && wide.includes('number')));
}

export const show = (v: unknown): string => (v === undefined ? 'none' : JSON.stringify(v));

export function showBounds(b: Record<string, unknown>): string {
  const parts: string[] = [];
  if ('minimum' in b || 'maximum' in b) parts.push(`${b.minimum ?? '-inf'}..${b.maximum ?? 'inf'}`);
  if ('exclusiveMinimum' in b) parts.push(`>${b.exclusiveMinimum}`);
  if ('exclusiveMaximum' in b) parts.push(`<${b.exclusiveMaximum}`);
  for (const [k, v] of Object.entries(b))
    if (!['minimum', 'maximum', 'exclusiveMinimum', 'exclusiveMaximum'].includes(k)) parts.push(`${k}=${JSON.stringify(v)}`);
  return parts.length ? parts.join(' ') : 'none';
}
