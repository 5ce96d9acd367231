// Table filters as people set them (values per filter key, kept in the URL) and as the list engine
// reads them: the `filter` JSON of Dispatch's grammar, `{"and":[{"or":[leaf, ...]}, ...]}`, one OR
// group per filter key, its chosen values as leaves. Pure functions, so tests pin the JSON exactly.

/** One filter a table offers. */
export interface FilterDef {
  /** The URL parameter, also the key of its values. */
  key: string;
  label: string;
  /** The list engine's model and field, e.g. `IncidentPriority` and `name`. */
  model?: string;
  field: string;
  /**
   * How values become leaves:
   * - `eq` (default): one `==` leaf per value, OR-ed;
   * - `ilike`: one `ilike` leaf per value with `%value%`;
   * - `after` / `before`: one `>=` / `<=` leaf (a date, sent without zone as the engine expects);
   * - `bool`: `==` with `true`/`false`;
   * - `me`: one `==` leaf whose value is the signed-in person's email, when the value is `1`.
   */
  kind?: 'eq' | 'ilike' | 'after' | 'before' | 'bool' | 'me';
  /** Options to pick from, when they are few and known (statuses); else free values. */
  options?: string[];
}

export type FilterValues = Record<string, string[]>;

export interface Leaf {
  model?: string;
  field: string;
  op: string;
  value: unknown;
}
export type FilterSpec = { and: FilterSpec[] } | { or: FilterSpec[] } | Leaf;

const leafOf = (def: FilterDef, value: string, me?: string): Leaf | null => {
  const base = def.model ? { model: def.model, field: def.field } : { field: def.field };
  switch (def.kind ?? 'eq') {
    case 'ilike':
      return { ...base, op: 'ilike', value: `%${value}%` };
    case 'after':
      return { ...base, op: '>=', value: zoneless(value, false) };
    case 'before':
      return { ...base, op: '<=', value: zoneless(value, true) };
    case 'bool':
      return { ...base, op: '==', value: value === 'true' || value === '1' };
    case 'me':
      return value === '1' && me ? { ...base, op: '==', value: me } : null;
    default:
      return { ...base, op: '==', value: /^\d+$/.test(value) && def.field === 'id' ? Number(value) : value };
  }
};

/** A date (`2026-10-01`) or date-time as the list engine takes it: no zone, UTC; a bare end date means its whole day. */
export function zoneless(value: string, endOfDay: boolean): string {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value)) return `${value}T${endOfDay ? '23:59:59.999' : '00:00:00.000'}`;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : date.toISOString().replace(/Z$/, '');
}

/** The list engine's `filter` for the chosen values; null when nothing is chosen. */
export function toFilterJson(defs: FilterDef[], values: FilterValues, me?: string): FilterSpec | null {
  const groups: FilterSpec[] = [];
  for (const def of defs) {
    const leaves = (values[def.key] ?? [])
      .filter((v) => v !== '')
      .map((v) => leafOf(def, v, me))
      .filter((l): l is Leaf => l !== null);
    if (leaves.length) groups.push({ or: leaves });
  }
  return groups.length ? { and: groups } : null;
}

/** Reads the values of `defs` out of URL search parameters (repeated parameters are several values). */
export function valuesFromParams(defs: FilterDef[], params: URLSearchParams): FilterValues {
  const values: FilterValues = {};
  for (const def of defs) {
    const all = params.getAll(def.key).filter((v) => v !== '');
    if (all.length) values[def.key] = all;
  }
  return values;
}

/** Writes `values` into a copy of `params`, replacing what `defs` held there; the page goes back to 1. */
export function paramsWithValues(defs: FilterDef[], params: URLSearchParams, values: FilterValues): URLSearchParams {
  const next = new URLSearchParams(params);
  for (const def of defs) {
    next.delete(def.key);
    for (const v of values[def.key] ?? []) if (v !== '') next.append(def.key, v);
  }
  next.delete('page');
  return next;
}

/**
 * The values a saved filter JSON stands for, when it has the shape toFilterJson writes for `defs`;
 * null when it does not (a view saved elsewhere, applied as it is instead).
 */
export function valuesFromFilterJson(defs: FilterDef[], spec: unknown, me?: string): FilterValues | null {
  if (spec === null || spec === undefined) return {};
  const groups = (spec as { and?: unknown }).and;
  if (!Array.isArray(groups)) return null;
  const values: FilterValues = {};
  for (const group of groups) {
    const leaves = (group as { or?: unknown }).or;
    if (!Array.isArray(leaves) || leaves.length === 0) return null;
    let found: FilterDef | undefined;
    const picked: string[] = [];
    for (const leaf of leaves as Leaf[]) {
      const def = defs.find((d) => {
        if (d.field !== leaf.field || (d.model ?? undefined) !== (leaf.model ?? undefined)) return false;
        const kind = d.kind ?? 'eq';
        if (kind === 'ilike') return leaf.op === 'ilike';
        if (kind === 'after') return leaf.op === '>=';
        if (kind === 'before') return leaf.op === '<=';
        if (kind === 'me') return leaf.op === '==' && leaf.value === me;
        return leaf.op === '==';
      });
      if (!def || (found && found !== def)) return null;
      found = def;
      picked.push(valueOfLeaf(def, leaf));
    }
    if (found) values[found.key] = [...(values[found.key] ?? []), ...picked];
  }
  return values;
}

const valueOfLeaf = (def: FilterDef, leaf: Leaf): string => {
  switch (def.kind ?? 'eq') {
    case 'ilike':
      return String(leaf.value).replace(/^%|%$/g, '');
    case 'after':
    case 'before':
      return String(leaf.value).slice(0, 10);
    case 'me':
      return '1';
    default:
      return String(leaf.value);
  }
};
