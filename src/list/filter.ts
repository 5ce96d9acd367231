// The `filter` JSON grammar of Dispatch (sqlalchemy-filters), compiled to SQL against a list's
// declared fields only:
//   spec    := leaf | boolean | [spec, ...]        (a list is an implicit AND)
//   boolean := {"and":[spec,...]} | {"or":[spec,...]} | {"not":[spec]}
//   leaf    := {"model"?, "field", "op"?: "==", "value"?}
//
// Filters and sorts see only what the viewer may see: a related incident or case they may not see
// is as if there were none (joined on the visibility rule, or matched inside EXISTS with it), and a
// column naming one (`case_id`, `incident_id`) reads as null for them. The rules are the readers'
// (server/visibility.ts), so no list can reach a hidden record through a filter.
import { and, getTableName, not, or, sql, type SQL } from 'drizzle-orm';
import { alias, getTableConfig, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import { validationError } from '../server/errors.ts';
import { jsonDepthPast, tooDeep } from '../server/json-body.ts';
import { UNRESTRICTED, type Viewer } from '../server/viewer.ts';
import { ruleOf, visibleRows } from '../server/visibility.ts';
import { column, own, type FieldType, type AnyListDefinition, type ManyRelation, type OneRelation } from './definition.ts';

const MAX_DEPTH = 32;
const MAX_LEAVES = 256;

const OPS: Record<string, string> = {
  '==': 'eq',
  eq: 'eq',
  '!=': 'ne',
  ne: 'ne',
  '>': 'gt',
  gt: 'gt',
  '<': 'lt',
  lt: 'lt',
  '>=': 'ge',
  ge: 'ge',
  '<=': 'le',
  le: 'le',
  like: 'like',
  ilike: 'ilike',
  not_ilike: 'not_ilike',
  in: 'in',
  not_in: 'not_in',
  is_null: 'is_null',
  is_not_null: 'is_not_null',
  any: 'any',
  not_any: 'not_any',
};

export const invalidFilter = (msg: string, type = 'value_error.invalid.filter') => validationError([{ loc: ['filter'], msg, type }]);

/** Parses the query parameter; empty means no filter. */
export function parseFilter(text: string | undefined): unknown {
  if (text === undefined || text.trim() === '') return null;
  if (jsonDepthPast(text) >= 0) throw tooDeep(['query', 'filter'], 'filter');
  try {
    return JSON.parse(text);
  } catch {
    throw validationError([{ loc: ['query', 'filter'], msg: 'Invalid JSON', type: 'value_error.json' }]);
  }
}

/** A date and time without a zone (`2026-10-01T00:00:00.000`, as the web UI sends). */
const ZONELESS = /^(\d{4}-\d{2}-\d{2})[T ](\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?)$/;

/** A timestamp without a zone reads as UTC, whatever the server's own zone (JavaScript would read it as local time). */
function inUtc(text: string): string {
  const m = ZONELESS.exec(text.trim());
  return m ? `${m[1]}T${m[2]}Z` : text;
}

function coerce(type: FieldType, value: unknown, field: string): unknown {
  const bad = () => invalidFilter(`Value ${JSON.stringify(value)} is not valid for field '${field}'.`);
  if (value === null) return null;
  switch (type) {
    case 'text':
      if (typeof value === 'string') return value;
      if (typeof value === 'number' || typeof value === 'boolean') return String(value);
      throw bad();
    case 'int': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n === 'number' && Number.isInteger(n) && Math.abs(n) <= Number.MAX_SAFE_INTEGER) return n;
      throw bad();
    }
    case 'float': {
      const n = typeof value === 'string' && value.trim() !== '' ? Number(value) : value;
      if (typeof n === 'number' && Number.isFinite(n)) return n;
      throw bad();
    }
    case 'bool':
      if (typeof value === 'boolean') return value;
      if (value === 'true' || value === 'false') return value === 'true';
      throw bad();
    case 'timestamp': {
      if (typeof value !== 'string' && typeof value !== 'number') throw bad();
      const d = new Date(typeof value === 'string' ? inUtc(value) : value);
      if (Number.isNaN(d.getTime())) throw bad();
      return d.toISOString();
    }
    case 'json':
      return JSON.stringify(value);
    case 'text[]':
      if (typeof value === 'string') return value;
      throw bad();
  }
}

interface Target {
  col: PgColumn | SQL;
  type: FieldType;
  /** Related records there may be many of, matched inside EXISTS. */
  relation?: ManyRelation;
}

const ORIGINAL_NAME = Symbol.for('drizzle:OriginalName');

/** A table (or an alias of it, `"case" "instance_case"`) as raw SQL writes it after FROM or JOIN. */
export function tableRef(table: PgTable): SQL {
  const name = getTableName(table);
  const original = (table as unknown as Record<symbol, string>)[ORIGINAL_NAME] ?? name;
  return original === name ? sql`${sql.identifier(name)}` : sql`${sql.identifier(original)} ${sql.identifier(name)}`;
}

/**
 * `col` of `table` as `viewer` may read it: when it is a foreign key to a table with a visibility
 * rule, the key of a row they may see, else null; otherwise the column itself.
 */
export function visibleColumn(table: PgTable, col: PgColumn, viewer: Viewer): PgColumn | SQL {
  if (viewer === UNRESTRICTED) return col;
  let config: ReturnType<typeof getTableConfig>;
  try {
    config = getTableConfig(table);
  } catch {
    return col;
  }
  for (const fk of config.foreignKeys) {
    const ref = fk.reference();
    if (ref.columns.length !== 1 || ref.columns[0].name !== col.name || !ruleOf(ref.foreignTable)) continue;
    const target = alias(ref.foreignTable, `visible_${getTableName(ref.foreignTable)}`);
    const key = column(target, ref.foreignColumns[0].name);
    return sql`(SELECT ${key} FROM ${tableRef(target)} WHERE ${key} = ${col} AND ${visibleRows(target, viewer)})`;
  }
  return col;
}

/** One condition of a spec, its structure checked and its operator normalised (`==` -> `eq`). */
export interface FilterLeaf {
  model?: string;
  field: string;
  op: string;
  value: unknown;
}

/** What a walk over a spec builds at each node. */
export interface FilterBuilder<T> {
  leaf(leaf: FilterLeaf): T;
  and(parts: T[]): T;
  or(parts: T[]): T;
  not(part: T): T;
}

type Fail = (msg: string, type?: string) => Error;

/**
 * Walks a spec through the grammar: lists, booleans, leaf attributes, operators, values and the
 * size limits are checked here; what the fields mean is the builder's business. Undefined for "no
 * filter" (null or an empty top-level list).
 */
export function walkFilter<T>(spec: unknown, build: FilterBuilder<T>, fail: Fail = invalidFilter): T | undefined {
  let leaves = 0;
  const leaf = (obj: Record<string, unknown>): T => {
    if (++leaves > MAX_LEAVES) throw fail(`A filter may hold at most ${MAX_LEAVES} conditions.`);
    for (const k of Object.keys(obj)) {
      if (!['model', 'field', 'op', 'value'].includes(k)) throw fail(`Unknown filter attribute '${k}'.`);
    }
    if (typeof obj.field !== 'string' || obj.field === '') throw fail('`field` is a mandatory filter attribute.');
    if (obj.model !== undefined && typeof obj.model !== 'string') throw fail('`model` must be a string.');
    const opName = obj.op === undefined ? '==' : obj.op;
    const op = typeof opName === 'string' ? own(OPS, opName) : undefined;
    if (!op) throw fail(`Operator \`${String(opName)}\` not valid.`);
    if (op !== 'is_null' && op !== 'is_not_null' && !('value' in obj)) throw fail('`value` must be provided.');
    return build.leaf({ model: obj.model as string | undefined, field: obj.field, op, value: obj.value });
  };
  const node = (s: unknown, depth: number): T => {
    if (depth > MAX_DEPTH) throw fail(`Filter is nested deeper than ${MAX_DEPTH} levels.`);
    if (Array.isArray(s)) {
      if (s.length === 0) throw fail('A list of filters must not be empty.');
      return build.and(s.map((x) => node(x, depth + 1)));
    }
    if (typeof s !== 'object' || s === null) throw fail(`Filter spec ${JSON.stringify(s)} should be a dict or a list.`);
    const obj = s as Record<string, unknown>;
    const keys = Object.keys(obj);
    const bool = keys.find((k) => k === 'and' || k === 'or' || k === 'not');
    if (!bool) return leaf(obj);
    if (keys.length !== 1) throw fail(`A boolean '${bool}' must be the only key of its object.`);
    const args = obj[bool];
    if (!Array.isArray(args) || args.length === 0) throw fail(`\`${bool}\` must be called with a non-empty list of arguments.`);
    if (bool === 'not' && args.length !== 1) throw fail('`not` must be called with one argument.');
    const parts = args.map((a) => node(a, depth + 1));
    return bool === 'and' ? build.and(parts) : bool === 'or' ? build.or(parts) : build.not(parts[0]);
  };
  if (spec === null || (Array.isArray(spec) && spec.length === 0)) return undefined;
  return node(spec, 0);
}

/**
 * Checks a saved filter expression (search filters) against the grammar alone, for records whose
 * list is not at hand: errors name `loc` instead of the `filter` query parameter.
 */
export function checkFilter(spec: unknown, loc: (string | number)[]): void {
  const fail: Fail = (msg, type = 'value_error.invalid.filter') => validationError([{ loc, msg, type, ctx: { msg } }]);
  const ok = () => true;
  walkFilter(spec, { leaf: ok, and: ok, or: ok, not: ok }, fail);
}

export class FilterCompiler {
  /** One-to-one relations the compiled filter reads, to be joined by the engine (on `joinOn`). */
  readonly joins = new Set<OneRelation>();

  /** `viewer`: whose filter it is (UNRESTRICTED for an organization's saved rules, which the service applies). */
  constructor(
    private readonly def: AnyListDefinition,
    readonly viewer: Viewer,
  ) {}

  /** The condition a one-to-one relation is joined on: its row, when the viewer may see it. */
  joinOn(rel: OneRelation): SQL {
    return and(rel.on, visibleRows(rel.table, this.viewer))!;
  }

  /** A field of the listed model or of a relation, as the viewer may read it (for sorting too). */
  field(table: PgTable, field: string): PgColumn | SQL {
    return visibleColumn(table, column(table, field), this.viewer);
  }

  /**
   * A field of a one-to-one relation as the viewer may read it (for sorting too): the listed row's
   * own column where it holds the field (`Project.id`, its `project_id`), else the joined row's,
   * and the relation is joined.
   */
  relationField(rel: OneRelation, field: string): PgColumn | SQL {
    const local = rel.local && own(rel.local, field);
    if (local && !ruleOf(rel.table)) return visibleColumn(this.def.table, local, this.viewer);
    this.joins.add(rel);
    return this.field(rel.table, field);
  }

  compile(spec: unknown): SQL | undefined {
    return walkFilter<SQL>(spec, {
      leaf: (l) => this.leaf(l),
      and: (parts) => and(...parts)!,
      or: (parts) => or(...parts)!,
      not: (part) => not(part),
    });
  }

  private resolve(model: string | undefined, field: string): Target {
    const name = model ?? this.def.model;
    if (name === this.def.model) {
      const type = own(this.def.fields, field);
      if (!type) throw invalidFilter(`${this.def.model} has no attribute '${field}'.`, 'value_error.not_found.field');
      return { col: this.field(this.def.table, field), type };
    }
    const relation = this.def.relations?.find((r) => r.model === name);
    if (!relation) throw invalidFilter(`The query does not reach a model named '${name}'.`, 'value_error.not_found.model');
    const type = own(relation.fields, field);
    if (!type) throw invalidFilter(`${relation.model} has no attribute '${field}'.`, 'value_error.not_found.field');
    if (relation.kind === 'one') return { col: this.relationField(relation, field), type };
    return { col: this.field(relation.table, field), type, relation };
  }

  private leaf({ model, field, op, value }: FilterLeaf): SQL {
    const target = this.resolve(model, field);
    const condition = this.condition(target, op, value, field);
    const rel = target.relation;
    // One-to-one relations are joined (resolve); many are matched inside EXISTS, so rows never repeat.
    if (!rel) return condition;
    return rel.exists(and(condition, visibleRows(rel.table, this.viewer))!);
  }

  private condition({ col, type }: Target, op: string, value: unknown, field: string): SQL {
    const text = type === 'text' ? sql`${col}` : sql`CAST(${col} AS text)`;
    const scalar = () => {
      if (Array.isArray(value) || (typeof value === 'object' && value !== null && type !== 'json')) {
        throw invalidFilter(`Operator needs a single value for field '${field}'.`);
      }
      return coerce(type, value, field);
    };
    const list = () => {
      if (!Array.isArray(value)) throw invalidFilter(`Operator \`${op}\` needs a list value for field '${field}'.`);
      return value.map((v) => coerce(type, v, field));
    };
    const pattern = () => {
      if (typeof value !== 'string') throw invalidFilter(`Operator \`${op}\` needs a string value for field '${field}'.`);
      return value;
    };
    const cmp = (operator: string) => {
      const v = scalar();
      if (v === null) throw invalidFilter(`Operator \`${op}\` cannot compare with null.`);
      return sql`${col} ${sql.raw(operator)} ${v}`;
    };
    switch (op) {
      case 'eq': {
        const v = scalar();
        return v === null ? sql`${col} IS NULL` : sql`${col} = ${v}`;
      }
      case 'ne': {
        const v = scalar();
        return v === null ? sql`${col} IS NOT NULL` : sql`${col} <> ${v}`;
      }
      case 'gt':
        return cmp('>');
      case 'lt':
        return cmp('<');
      case 'ge':
        return cmp('>=');
      case 'le':
        return cmp('<=');
      case 'like':
        return sql`${text} LIKE ${pattern()}`;
      case 'ilike':
        return sql`${text} ILIKE ${pattern()}`;
      case 'not_ilike':
        return sql`${text} NOT ILIKE ${pattern()}`;
      case 'in':
      case 'not_in': {
        const values = list().filter((v) => v !== null);
        if (values.length === 0) return op === 'in' ? sql`FALSE` : sql`TRUE`;
        const joined = sql.join(
          values.map((v) => sql`${v}`),
          sql`, `,
        );
        return op === 'in' ? sql`${col} IN (${joined})` : sql`${col} NOT IN (${joined})`;
      }
      case 'is_null':
        return sql`${col} IS NULL`;
      case 'is_not_null':
        return sql`${col} IS NOT NULL`;
      case 'any':
      case 'not_any': {
        if (type !== 'text[]') throw invalidFilter(`Operator \`${op}\` applies to list fields only; '${field}' is not one.`);
        const v = scalar();
        return op === 'any' ? sql`${v} = ANY(${col})` : sql`NOT (${v} = ANY(${col}))`;
      }
    }
    throw invalidFilter(`Operator \`${op}\` not valid.`);
  }
}
