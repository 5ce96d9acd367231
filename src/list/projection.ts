// Projections: a read shape cut to a named set of its top fields, for lists whose `include[]`
// keeps no more than those (the dashboards ask for thousands of records and a dozen fields each).
// The set is declared by the domain, never made from what a client sends, so the statements
// read with projections stay few.
import { Type, type TObject, type TSchema } from '@sinclair/typebox';

/** `shape` with only `fields` (and `id`), as a read shape of its own (`title` names its statement). */
export function projection(shape: TObject, fields: readonly string[], title: string): TSchema {
  const kept = new Set(['id', ...fields]);
  const properties = Object.fromEntries(Object.entries(shape.properties).filter(([key]) => kept.has(key)));
  return Type.Object(properties, { title });
}

/** Whether every path of `include` starts with one of `fields` (or `id`). */
export function within(include: readonly string[], fields: readonly string[]): boolean {
  const kept = new Set(['id', ...fields]);
  return include.every((path) => {
    const head = path.split('.').find(Boolean);
    return !head || kept.has(head.replace(/\[\]$/, ''));
  });
}
