// `include[]`: keep only the listed fields of each item. `a.b.c` nests, a segment ending in `[]`
// (`tags[].name`) applies to every element of a list, and two paths with the same first segment
// overwrite each other (the last wins), as in Dispatch.

import type { Static, TSchema, TUnsafe } from '@sinclair/typebox';
import { withoutKeywords } from '../server/shapes.ts';

type Json = unknown;

/** A value with any of its fields left out, at any depth: an item cut to `include[]`, or a value includeShape's schema accepts. */
export type Included<T> = T extends readonly (infer E)[] ? Included<E>[] : T extends object ? { [K in keyof T]?: Included<T[K]> } : T;

const UNSAFE = new Set(['__proto__', 'constructor', 'prototype']);

function pick(value: Json, path: string[]): Json {
  if (path.length === 0 || value === null || value === undefined) return value;
  const [head, ...rest] = path;
  const many = head.endsWith('[]');
  const key = many ? head.slice(0, -2) : head;
  // A read object's own fields only: `__proto__` and its kin name none.
  if (typeof value !== 'object' || !Object.hasOwn(value, key) || UNSAFE.has(key)) return undefined;
  const inner = (value as Record<string, Json>)[key];
  if (inner === undefined) return undefined;
  // An element the rest of the path finds nothing in is kept empty: a list's items are objects.
  const picked = many && Array.isArray(inner) ? inner.map((x) => pick(x, rest) ?? {}) : pick(inner, rest);
  return { [key]: picked };
}

/**
 * `items` cut to `include[]`. The items are the caller's own, just read: when every path is a top
 * field (the dashboards' `include[]`), the fields left out are set to undefined in place, which the
 * serializer leaves out as it does a missing field, instead of copying thousands of items.
 */
export function applyInclude<T extends object>(items: T[], include: string[]): Included<T>[] {
  // A whole item is an Included<T> (nothing left out), as is what `pick` keeps of one: the compiler cannot see through the conditional type.
  if (include.length === 0) return items as Included<T>[];
  const paths = include.map((p) => p.split('.').filter(Boolean)).filter((p) => p.length > 0);
  if (paths.every((p) => p.length === 1 && !p[0].endsWith('[]'))) {
    const kept = new Set(paths.map(([key]) => key));
    for (const item of items) for (const key of Object.keys(item)) if (!kept.has(key)) (item as Record<string, Json>)[key] = undefined;
    return items as Included<T>[];
  }
  // A top field (the dashboards' dozen, on thousands of items) is copied as it is: what `pick` keeps
  // of it, without the object `pick` makes to carry it.
  const top = paths.map((p) => (p.length === 1 && !p[0].endsWith('[]') && !UNSAFE.has(p[0]) ? p[0] : undefined));
  return items.map((item) => {
    const out: Record<string, Json> = {};
    for (let i = 0; i < paths.length; i++) {
      const key = top[i];
      if (key !== undefined) {
        const value = Object.hasOwn(item, key) ? (item as Record<string, Json>)[key] : undefined;
        if (value !== undefined) out[key] = value;
        continue;
      }
      const picked = pick(item, paths[i]) as Record<string, Json> | undefined;
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
