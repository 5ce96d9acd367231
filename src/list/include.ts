// `include[]`: keep only the listed fields of each item. `a.b.c` nests, a segment ending in `[]`
// (`tags[].name`) applies to every element of a list, and two paths with the same first segment
// overwrite each other (the last wins), as in Dispatch.

import type { Static, TSchema, TUnsafe } from '@sinclair/typebox';
import { withoutKeywords } from '../server/shapes.ts';

type Json = unknown;

/** A value with any of its fields left out, at any depth: an item cut to `include[]`, or a value includeShape's schema accepts. */
export type Included<T> = T extends readonly (infer E)[] ? Included<E>[] : T extends object ? { [K in keyof T]?: Included<T[K]> } : T;

function pick(value: Json, path: string[]): Json {
  if (path.length === 0 || value === null || value === undefined) return value;
  const [head, ...rest] = path;
  const many = head.endsWith('[]');
  const key = many ? head.slice(0, -2) : head;
  if (typeof value !== 'object' || !Object.hasOwn(value, key)) return undefined;
  const inner = (value as Record<string, Json>)[key];
  if (inner === undefined) return undefined;
  const picked = many && Array.isArray(inner) ? inner.map((x) => pick(x, rest)) : pick(inner, rest);
  return { [key]: picked };
}

export function applyInclude<T extends object>(items: T[], include: string[]): Included<T>[] {
  // A whole item is an Included<T> (nothing left out), as is what `pick` keeps of one: the compiler cannot see through the conditional type.
  if (include.length === 0) return items as Included<T>[];
  const paths = include.map((p) => p.split('.').filter(Boolean)).filter((p) => p.length > 0);
  return items.map((item) => {
    const out: Record<string, Json> = {};
    for (const path of paths) {
      const picked = pick(item, path) as Record<string, Json> | undefined;
      if (picked) Object.assign(out, picked);
    }
    return out as Included<T>;
  });
}

/**
 * The response schema of a list that takes `include[]`: the item shape with nothing required and no
 * defaults, so the serializer writes exactly the fields the client kept (fast-json-stringify throws
 * on a missing required field and fills in defaults) and still drops the ones the shape does not have.
 */
export const includeShape = <T extends TSchema>(schema: T): TUnsafe<Included<Static<T>>> =>
  // The same schema without `required` at any depth: its static type is the value's with every field optional.
  withoutKeywords(schema, ['required', 'default']) as TUnsafe<Included<Static<T>>>;

type Shape = TSchema & { type?: string; properties?: Record<string, Shape>; items?: Shape };

/** `schema` cut to the path as `pick` cuts a value of it; null where the cut is not one a shape can say. */
function cutPath(schema: Shape, path: string[]): Shape | null {
  const [head, ...rest] = path;
  const many = head.endsWith('[]');
  const key = many ? head.slice(0, -2) : head;
  const prop = schema.type === 'object' ? schema.properties?.[key] : undefined;
  if (!prop) return null;
  let kept: Shape | null = prop;
  if (rest.length) {
    if (prop.type === 'array') kept = many && prop.items ? withItems(prop, cutPath(prop.items, rest)) : null;
    else kept = prop.type === 'object' ? cutPath(prop, rest) : null;
  }
  return kept && ({ ...schema, properties: { [key]: kept } } as Shape);
}

const withItems = (array: Shape, items: Shape | null): Shape | null => items && ({ ...array, items } as Shape);

const cuts = new WeakMap<TSchema, Map<string, TSchema | null>>();
/**
 * Each cut shape gets statements of its own (prepared on every connection), so the sets of paths
 * clients choose are bounded: past this many, a new set is cut by applyInclude instead.
 */
const MAX_CUTS = 64;

/**
 * The item shape (an includeShape's item: nothing required, no defaults) cut to what applyInclude
 * keeps of an item, its properties in the shape's order as the serializer writes them; null when
 * a path cuts in a way only applyInclude can (through a list without `[]`, into a scalar, or to a
 * field the shape does not have, or past MAX_CUTS sets of paths). Made once per shape and set of paths.
 */
export function includedShape(item: TSchema, include: string[]): TSchema | null {
  let byPaths = cuts.get(item);
  if (!byPaths) cuts.set(item, (byPaths = new Map()));
  const key = JSON.stringify(include);
  if (byPaths.has(key)) return byPaths.get(key)!;
  if (byPaths.size >= MAX_CUTS) return null;
  const shape = item as Shape;
  // As Object.assign in applyInclude: of two paths with the same first segment, the last wins.
  const last = new Map<string, string[]>();
  for (const path of include.map((p) => p.split('.').filter(Boolean)).filter((p) => p.length > 0)) last.set(path[0].replace(/\[\]$/, ''), path);
  const properties: Record<string, Shape> = {};
  let cut: TSchema | null = { ...shape, properties };
  for (const name of Object.keys(shape.properties ?? {})) {
    const path = last.get(name);
    if (!path) continue;
    const one = cutPath(shape, path);
    if (!one) {
      cut = null;
      break;
    }
    properties[name] = one.properties![name];
  }
  byPaths.set(key, cut);
  return cut;
}
