// Request validation: Ajv's options and custom formats, and the translation of Ajv's errors into
// the Pydantic v1 items Dispatch clients expect ({loc, msg, type[, ctx]}).
import type { ErrorObject } from 'ajv';
import type { ValidationItem } from './errors.ts';
import { isColor } from './color.ts';

const LOCATION: Record<string, string> = { body: 'body', querystring: 'query', params: 'path', headers: 'header' };

/**
 * Patterns of the contract that backtrack exponentially, with the linear patterns matching the same
 * strings. The organization slug's `^[\w]+(?:_[\w]+)*$` is `^\w+$` (`\w` holds `_`), but tried on
 * "a_a_a_..._!" it splits the underscores every possible way: 80 characters held the event loop for
 * minutes. Schemas keep the contract's text (the OpenAPI document shows it); validation runs these.
 */
const LINEAR_PATTERNS: Record<string, string> = {
  '^[\\w]+(?:_[\\w]+)*$': '^\\w+$',
};

const regExp = Object.assign((pattern: string, flags: string) => new RegExp(LINEAR_PATTERNS[pattern] ?? pattern, flags), {
  code: 'linearPatterns',
});

export const ajvOptions = {
  customOptions: {
    // Without optimize, Ajv compiles a schema in less than half the time; it skips only a pass that
    // trims unused names from the generated code, whose validation is the same.
    code: { regExp, optimize: false },
    // NaN and Infinity are no numbers: JSON's 1e309 parses to Infinity, which every bound lets through.
    strictNumbers: true,
    removeAdditional: true as const, // unknown body fields are dropped, as Pydantic ignores them
    useDefaults: true,
    coerceTypes: 'array' as const,
    allErrors: true,
    formats: {
      color: (v: string) => isColor(v),
      'json-string': (v: string) => {
        if (v.trim() === '') return true;
        try {
          JSON.parse(v);
          return true;
        } catch {
          return false;
        }
      },
    },
  },
};

function typeError(expected: string): [string, string] {
  switch (expected) {
    case 'integer':
      return ['value is not a valid integer', 'type_error.integer'];
    case 'number':
      return ['value is not a valid float', 'type_error.float'];
    case 'boolean':
      return ['value could not be parsed to a boolean', 'type_error.bool'];
    case 'array':
      return ['value is not a valid list', 'type_error.list'];
    case 'object':
      return ['value is not a valid dict', 'type_error.dict'];
    case 'null':
      return ['value is not none', 'type_error.none.allowed'];
    default:
      return ['str type expected', 'type_error.str'];
  }
}

function describe(e: ErrorObject): Omit<ValidationItem, 'loc'> | null {
  const p = e.params as Record<string, unknown>;
  switch (e.keyword) {
    case 'required':
      return { msg: 'field required', type: 'value_error.missing' };
    case 'type': {
      const [msg, type] = typeError(String(p.type).split(',')[0]);
      return { msg, type };
    }
    case 'minLength':
      return { msg: `ensure this value has at least ${p.limit} characters`, type: 'value_error.any_str.min_length', ctx: { limit_value: p.limit } };
    case 'maxLength':
      return { msg: `ensure this value has at most ${p.limit} characters`, type: 'value_error.any_str.max_length', ctx: { limit_value: p.limit } };
    case 'pattern':
      return { msg: `string does not match regex "${p.pattern}"`, type: 'value_error.str.regex', ctx: { pattern: p.pattern } };
    case 'minItems':
      return { msg: `ensure this value has at least ${p.limit} items`, type: 'value_error.list.min_items', ctx: { limit_value: p.limit } };
    case 'maxItems':
      return { msg: `ensure this value has at most ${p.limit} items`, type: 'value_error.list.max_items', ctx: { limit_value: p.limit } };
    case 'minimum':
    case 'exclusiveMinimum':
    case 'maximum':
    case 'exclusiveMaximum': {
      const [word, type] = {
        minimum: ['greater than or equal to', 'not_ge'],
        exclusiveMinimum: ['greater than', 'not_gt'],
        maximum: ['less than or equal to', 'not_le'],
        exclusiveMaximum: ['less than', 'not_lt'],
      }[e.keyword];
      return { msg: `ensure this value is ${word} ${p.limit}`, type: `value_error.number.${type}`, ctx: { limit_value: p.limit } };
    }
    case 'enum': {
      const values = (p.allowedValues as unknown[]) ?? [];
      return {
        msg: `value is not a valid enumeration member; permitted: ${values.map((v) => `'${v}'`).join(', ')}`,
        type: 'type_error.enum',
        ctx: { enum_values: values },
      };
    }
    case 'const':
      return { msg: `unexpected value; permitted: '${p.allowedValue}'`, type: 'value_error.const', ctx: { given: undefined, permitted: [p.allowedValue] } };
    case 'format':
      switch (p.format) {
        case 'email':
          return { msg: 'value is not a valid email address', type: 'value_error.email' };
        case 'date-time':
          return { msg: 'invalid datetime format', type: 'value_error.datetime' };
        case 'color':
          return { msg: 'value is not a valid color: string not recognised as a valid color', type: 'value_error.color' };
        case 'json-string':
          return { msg: 'Invalid JSON', type: 'value_error.json' };
        default:
          return { msg: `value is not a valid ${p.format}`, type: `value_error.${p.format}` };
      }
    case 'additionalProperties':
      return { msg: 'extra fields not permitted', type: 'value_error.extra' };
    case 'anyOf':
    case 'oneOf':
    case 'if':
      return null; // the branch errors say what went wrong
    default:
      return { msg: e.message ?? 'invalid value', type: 'value_error' };
  }
}

function pathSegments(instancePath: string): (string | number)[] {
  if (!instancePath) return [];
  return instancePath
    .slice(1)
    .split('/')
    .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'))
    .map((s) => (/^\d+$/.test(s) ? Number(s) : s));
}

/** Ajv errors of one request part as Pydantic items, one per location (the first error there wins). */
export function toValidationItems(errors: ErrorObject[], context: string): ValidationItem[] {
  const where = LOCATION[context] ?? context;
  const out = new Map<string, ValidationItem>();
  for (const e of errors) {
    const d = describe(e);
    if (!d) continue;
    const loc = [where, ...pathSegments(e.instancePath)];
    if (e.keyword === 'required') loc.push(String((e.params as { missingProperty: string }).missingProperty));
    if (e.keyword === 'additionalProperties') loc.push(String((e.params as { additionalProperty: string }).additionalProperty));
    const key = JSON.stringify(loc);
    if (!out.has(key)) out.set(key, { loc, ...d });
  }
  return [...out.values()];
}

/** An integer as a client writes one in a path or query string: decimal digits, maybe a minus sign. */
const INTEGER_TEXT = /^-?\d+$/;

type FlatSchema = { properties?: Record<string, { type?: unknown; items?: { type?: unknown } }> } | undefined;
const integerFieldsOf = new WeakMap<object, string[]>();

/** The integer fields of a path or query-string schema (arrays of integers included). */
function integerFields(schema: FlatSchema): string[] {
  if (!schema) return [];
  let fields = integerFieldsOf.get(schema);
  if (!fields) {
    const isInt = (t: unknown) => t === 'integer' || t === 'number';
    fields = Object.entries(schema.properties ?? {})
      .filter(([, s]) => isInt(s.type) || (s.type === 'array' && isInt(s.items?.type)))
      .map(([k]) => k);
    integerFieldsOf.set(schema, fields);
  }
  return fields;
}

function canonicalInteger(text: string): string {
  if (!INTEGER_TEXT.test(text)) return 'not an integer'; // refused by the schema: value is not a valid integer
  const n = Number(text);
  if (n === 0) return '0'; // "-0" would pass `minimum: 0` as -0
  // Past the safe range (up to Infinity) every bound would be skipped: a finite stand-in keeps them.
  if (!Number.isSafeInteger(n)) return String(n < 0 ? Number.MIN_SAFE_INTEGER : Number.MAX_SAFE_INTEGER);
  return text;
}

/**
 * Integers of the path and query string as decimal digits only, before anything reads them.
 * Ajv's coercion would take any JavaScript number text ("1e3", "0x10", " 12") and let "1e309"
 * through as Infinity, past every bound; and authentication reads `organization_id` before Ajv
 * does, so both must agree on what an id is. Texts that are no integer are left for the schema to
 * refuse (422 `type_error.integer`); integers past the safe range become the nearest safe one, so
 * the schema's bounds refuse them.
 */
export function canonicalIntegers(values: unknown, schema: unknown) {
  if (!values || typeof values !== 'object') return;
  const obj = values as Record<string, unknown>;
  for (const field of integerFields(schema as FlatSchema)) {
    const v = obj[field];
    if (typeof v === 'string') obj[field] = canonicalInteger(v);
    else if (Array.isArray(v)) obj[field] = v.map((x) => (typeof x === 'string' ? canonicalInteger(x) : x));
  }
}
