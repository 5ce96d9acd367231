// Compares one operation of Muster's generated OpenAPI with the same operation of the Dispatch
// contract and lists every difference a client could notice on the wire.
//
// What is compared, and why:
// - path parameters: names (from the URL templates: the contract's `parameters` omit some, e.g. Get Me
//   and Escalate), required flags, types, enum values and bounds;
// - query parameters: every contract parameter must be accepted under the same name, with the same
//   array-ness, required flag, type, enum values, default and bounds;
// - request body: the same property names, the same `required` list, and per property the
//   same type, enum values, default and bounds, and null accepted wherever the contract accepts it. One level down (objects and arrays of
//   objects) only names, types, nullability and enum values, and our nested `required` may be
//   laxer than the contract's: nested bodies are references Muster resolves by id or name;
// - 200 response: every contract property is present in ours at every depth (ours may add more), with a
//   type the contract allows and the same enum values.
//
// Defaults on update bodies (the contract's `*Update` models): Dispatch applies an update with
// `dict(skip_defaults=True)`, so an omitted field keeps its stored value whatever the model's default
// says, while Ajv (useDefaults) would fill the default in and overwrite it. So ours must declare no
// default there. Lists are the exception: Dispatch assigns relationship lists (tags, terms, filters...)
// from the model, so an omitted list becomes its default `[]`; those are compared as elsewhere.
//
// `required` is compared as declared: a field with a default is optional in the contract (FastAPI
// never requires one), so ours is written `Defaulted(...)` (shapes.ts) to say the same.
//
// Bounds (minimum/maximum, exclusive ones normalised to inclusive integers, lengths, pattern, format)
// and defaults are compared only on inputs, where they decide what is accepted and what gets stored;
// response bounds say nothing a client relies on. Every deliberate difference is allow-listed in
// allowlist.ts with its reason.
import { SchemaReader, show, showBounds, typesCover, type Json, type Shape } from './schema.ts';

export interface Mismatch {
  /** `GET /organizations/{organization_id}`: the contract's method and path. */
  op: string;
  /** `<section>.<aspect>`, e.g. `query.default`, `body.required`, `response.missing`. */
  kind: string;
  /** Where in the operation: `query page`, `body.organization.name`, `response.items[].id`. */
  where: string;
  message: string;
}

export const METHODS = ['get', 'put', 'post', 'delete', 'patch', 'options', 'head', 'trace'] as const;

/** Path parameter names in a URL template, in order. */
export const templateParams = (path: string) => [...path.matchAll(/\{([^}]+)\}/g)].map((m) => m[1]);

/** The URL with its parameter names blanked: `/{organization}/tags/{tag_id}` -> `/{}/tags/{}`. */
export const pathShape = (path: string) => path.replace(/\{[^}]+\}/g, '{}');

type Param = { name: string; in: string; required?: boolean; schema?: Json };

const jsonSchemaOf = (x: Json | undefined): Json | undefined => x?.content?.['application/json']?.schema;

/** A schema that says nothing (FastAPI writes `{}` for handlers returning None). */
const isEmptySchema = (s: Json | undefined) => !s || Object.keys(s).filter((k) => !['title', 'description'].includes(k)).length === 0;

const sameJson = (a: unknown, b: unknown) => JSON.stringify(a) === JSON.stringify(b);

export class OperationComparer {
  private readonly contract: SchemaReader;
  private readonly ours: SchemaReader;
  readonly out: Mismatch[] = [];

  constructor(
    contractDoc: Json,
    ourDoc: Json,
    private readonly op: string,
  ) {
    this.contract = new SchemaReader(contractDoc);
    this.ours = new SchemaReader(ourDoc);
  }

  private add(kind: string, where: string, message: string) {
    this.out.push({ op: this.op, kind, where, message });
  }

  /** Compares our operation (at `ourPath`) with the contract's (at `contractPath`). */
  compare(contractPath: string, contractOp: Json, ourPath: string, ourOp: Json): Mismatch[] {
    this.parameters(contractPath, contractOp, ourPath, ourOp);
    this.body(contractOp, ourOp);
    this.response(contractOp, ourOp);
    return this.out;
  }

  // ---- parameters -------------------------------------------------------------------------------

  private parameters(contractPath: string, contractOp: Json, ourPath: string, ourOp: Json) {
    const cParams = (contractOp.parameters ?? []) as Param[];
    const oParams = (ourOp.parameters ?? []) as Param[];

    const cNames = templateParams(contractPath);
    const oNames = templateParams(ourPath);
    if (!sameJson(cNames, oNames)) this.add('path.names', 'path', `path parameters ${show(oNames)}, contract ${show(cNames)}`);
    const oDeclared = oParams.filter((p) => p.in === 'path').map((p) => p.name);
    if (!sameJson([...oDeclared].sort(), [...oNames].sort())) {
      this.add('path.names', 'path', `our OpenAPI declares path parameters ${show(oDeclared)} for the URL's ${show(oNames)}`);
    }
    for (const c of cParams.filter((p) => p.in === 'path')) {
      const o = oParams.find((p) => p.in === 'path' && p.name === c.name);
      if (!o) continue; // reported as path.names
      const where = `path ${c.name}`;
      if (Boolean(c.required) !== Boolean(o.required)) this.add('path.required', where, `required ${Boolean(o.required)}, contract ${Boolean(c.required)}`);
      this.scalar('path', where, this.contract.shape(c.schema), this.ours.shape(o.schema), { bounds: true });
    }

    for (const c of cParams.filter((p) => p.in === 'query')) {
      const where = `query ${c.name}`;
      const o = oParams.find((p) => p.in === 'query' && p.name === c.name);
      if (!o) {
        this.add('query.missing', where, `not accepted (contract: ${c.required ? 'required' : 'optional'} ${this.describe(this.contract.shape(c.schema))})`);
        continue;
      }
      const cs = this.contract.shape(c.schema);
      const os = this.ours.shape(o.schema);
      const cArray = cs.types.includes('array');
      const oArray = os.types.includes('array');
      if (cArray !== oArray) {
        this.add('query.array', where, `${oArray ? 'an array' : 'not an array'}, contract ${cArray ? 'an array' : 'not an array'}`);
        continue;
      }
      const cReq = Boolean(c.required);
      const oReq = Boolean(o.required);
      if (cReq !== oReq) this.add('query.required', where, `${oReq ? 'required' : 'optional'}, contract ${cReq ? 'required' : 'optional'}`);
      if (cs.hasDefault || os.hasDefault) {
        if (!sameJson(cs.default, os.default)) this.add('query.default', where, `default ${show(os.default)}, contract ${show(cs.default)}`);
      }
      if (cArray) this.scalar('query', `${where}[]`, this.contract.shape(cs.items), this.ours.shape(os.items), { bounds: true });
      else this.scalar('query', where, cs, os, { bounds: true });
    }
  }

  // ---- request body -----------------------------------------------------------------------------

  private body(contractOp: Json, ourOp: Json) {
    const cSchema = jsonSchemaOf(contractOp.requestBody);
    const oSchema = jsonSchemaOf(ourOp.requestBody);
    if (!cSchema && !oSchema) return;
    if (!oSchema) return this.add('body.missing', 'body', `no JSON request body, contract ${this.describe(this.contract.shape(cSchema))}`);
    if (!cSchema) return this.add('body.extra', 'body', 'a JSON request body the contract does not have');

    const c = this.contract.shape(cSchema);
    const o = this.ours.shape(oSchema);
    if (!c.props) {
      this.scalar('body', 'body', c, o, { bounds: true, default: true });
      if (c.items && o.items) this.nested('body[]', this.contract.shape(c.items), this.ours.shape(o.items));
      return;
    }
    if (!o.props) return this.add('body.type', 'body', `${this.describe(o)}, contract an object with ${show(Object.keys(c.props).sort())}`);

    const isUpdate = /Update$/.test(c.refs.at(-1) ?? '');
    const cNames = Object.keys(c.props).sort();
    const oNames = Object.keys(o.props).sort();
    for (const n of cNames.filter((n) => !oNames.includes(n)))
      this.add('body.missing', `body.${n}`, `not accepted (contract: ${this.describe(this.contract.shape(c.props[n]))})`);
    for (const n of oNames.filter((n) => !cNames.includes(n))) this.add('body.extra', `body.${n}`, `accepted, but the contract has no such field`);

    if (!sameJson(c.required, o.required)) this.add('body.required', 'body', `required ${show(o.required)}, contract ${show(c.required)}`);

    for (const n of cNames.filter((n) => oNames.includes(n))) {
      const cp = this.contract.shape(c.props[n]);
      const op = this.ours.shape(o.props[n]);
      const keepsStored = isUpdate && !cp.types.includes('array');
      this.scalar('body', `body.${n}`, cp, op, { bounds: true, default: !keepsStored, required: c.required.includes(n) });
      if (keepsStored && op.hasDefault) {
        this.add(
          'body.default',
          `body.${n}`,
          `default ${show(op.default)} on an update: an omitted field would be overwritten with it instead of keeping its value`,
        );
      }
      if (cp.items && op.items) {
        const ci = this.contract.shape(cp.items);
        const oi = this.ours.shape(op.items);
        this.scalar('body', `body.${n}[]`, ci, oi, {});
        this.nested(`body.${n}[]`, ci, oi);
      } else {
        this.nested(`body.${n}`, cp, op);
      }
    }
  }

  /** One level down in a request body: names, types, nullability, enum values; laxer `required` allowed. */
  private nested(where: string, c: Shape, o: Shape) {
    if (!c.props) return;
    if (!o.props) {
      if (!o.open) this.add('body.type', where, `${this.describe(o)}, contract an object with ${show(Object.keys(c.props).sort())}`);
      return;
    }
    const cNames = Object.keys(c.props).sort();
    const oNames = Object.keys(o.props).sort();
    if (!o.open)
      for (const n of cNames.filter((n) => !oNames.includes(n)))
        this.add('body.missing', `${where}.${n}`, `not accepted (contract: ${this.describe(this.contract.shape(c.props[n]))})`);
    for (const n of oNames.filter((n) => !cNames.includes(n))) this.add('body.extra', `${where}.${n}`, `accepted, but the contract has no such field`);
    const stricter = o.required.filter((n) => !c.required.includes(n));
    if (stricter.length) this.add('body.required', where, `requires ${show(stricter)}, which the contract does not (contract requires ${show(c.required)})`);
    for (const n of cNames.filter((n) => oNames.includes(n))) {
      this.scalar('body', `${where}.${n}`, this.contract.shape(c.props[n]), this.ours.shape(o.props[n]), { required: c.required.includes(n) });
    }
  }

  /** Type, nullability, enum values and, when asked, bounds and default of one input value. */
  private scalar(section: string, where: string, c: Shape, o: Shape, opts: { bounds?: boolean; default?: boolean; required?: boolean }) {
    if (c.types.length && o.types.length && !sameJson(c.types, o.types))
      this.add(`${section}.type`, where, `type ${o.types.join('|')}, contract ${c.types.join('|')}`);
    if (section === 'body') {
      // The contract's silence is no "rejects": Pydantic 1 accepts null for any optional field without
      // a default (`x: str = None`), and FastAPI cannot write `nullable` next to a $ref. It does
      // reject null for a required field and for one with a non-null default.
      const rejects = opts.required || (c.hasDefault && c.default !== null);
      if (c.nullable && !o.nullable) this.add('body.nullable', where, 'rejects null, contract accepts it');
      else if (!c.nullable && o.nullable && rejects)
        this.add('body.nullable', where, `accepts null, contract rejects it (${opts.required ? 'required' : `default ${show(c.default)}`})`);
    }
    if ((c.enum || o.enum) && !sameJson(c.enum, o.enum)) this.add(`${section}.enum`, where, `enum ${show(o.enum)}, contract ${show(c.enum)}`);
    if (opts.default && (c.hasDefault || o.hasDefault) && !sameJson(c.default, o.default))
      this.add(`${section}.default`, where, `default ${show(o.default)}, contract ${show(c.default)}`);
    if (opts.bounds && !sameJson(sortKeys(c.bounds), sortKeys(o.bounds)))
      this.add(`${section}.bounds`, where, `${showBounds(o.bounds)}, contract ${showBounds(c.bounds)}`);
  }

  // ---- 200 response -----------------------------------------------------------------------------

  private response(contractOp: Json, ourOp: Json) {
    const cSchema = jsonSchemaOf(contractOp.responses?.['200']);
    if (isEmptySchema(cSchema)) return;
    const oSchema = jsonSchemaOf(ourOp.responses?.['200']);
    if (!oSchema) return this.add('response.missing', 'response', `no JSON 200 response schema, contract ${this.describe(this.contract.shape(cSchema))}`);
    this.responseValue('response', this.contract.shape(cSchema), this.ours.shape(oSchema), []);
  }

  private responseValue(where: string, c: Shape, o: Shape, seen: string[]) {
    // A contract type our value may not take (an integer where the contract says number is fine).
    if (!typesCover(c.types, o.types)) this.add('response.type', where, `type ${o.types.join('|')}, contract ${c.types.join('|')}`);
    if (c.enum && !sameJson(c.enum, o.enum)) this.add('response.enum', where, `enum ${show(o.enum)}, contract ${show(c.enum)}`);
    // Follow each contract schema once per branch: Dispatch's read models refer to each other in cycles.
    const path = [...seen, ...c.refs];
    if (c.refs.some((r) => seen.includes(r))) return;
    if (c.props) {
      if (!o.props) {
        if (!o.open || o.types.length) this.add('response.type', where, `${this.describe(o)}, contract an object with ${show(Object.keys(c.props).sort())}`);
        return;
      }
      // Missing properties of one object are one mismatch: a whole nested read model missing is one line.
      const missing = Object.keys(c.props)
        .sort()
        .filter((n) => !(n in o.props!));
      if (missing.length) {
        const total = Object.keys(c.props).length;
        const model = c.refs.length ? ` ${c.refs.at(-1)}` : '';
        const ours = Object.keys(o.props).sort();
        const message =
          missing.length === total
            ? `missing all ${total}${model} properties (ours has ${ours.length ? ours.join(', ') : 'none'})`
            : `missing ${missing.length > 12 ? `${missing.slice(0, 12).join(', ')} and ${missing.length - 12} more` : missing.join(', ')} (${missing.length} of ${total}${model} properties)`;
        this.add('response.missing', where, message);
      }
      for (const n of Object.keys(c.props)
        .sort()
        .filter((n) => n in o.props!)) {
        const cw = where === 'response' ? `response.${n}` : `${where}.${n}`;
        this.responseValue(cw, this.contract.shape(c.props[n]), this.ours.shape(o.props[n]), path);
      }
    }
    if (c.items) {
      if (!o.items) return;
      this.responseValue(`${where}[]`, this.contract.shape(c.items), this.ours.shape(o.items), path);
    }
  }

  private describe(s: Shape): string {
    const name = s.refs.at(-1);
    const type = s.types.join('|') || 'any';
    return `${name ? `${name} ` : ''}${type}${s.nullable ? ' or null' : ''}${s.enum ? ` ${show(s.enum)}` : ''}`;
  }
}

function sortKeys(o: Record<string, unknown>) {
  return Object.fromEntries(Object.entries(o).sort(([a], [b]) => a.localeCompare(b)));
}
