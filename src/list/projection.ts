// Projections: a read shape cut to a named set of fields, for lists whose `include[]` keeps no more
// than those (the dashboards ask for thousands of records and a dozen fields each; the web UI's
// tables for a few fields of a page of them). A field is a top field (`project`, kept whole) or a
// path into nested objects as include[] writes it (`incident_priority.name`: of the priority, only
// its name is read). The set is declared by the domain, never made from what a client sends, so
// the statements read with projections stay few.
import { Type, type TObject, type TSchema } from '@sinclair/typebox';

/** A path's segments, a list's `[]` left out (`tags[].name` is under `tags`). */
const segments = (path: string) =>
  path
    .split('.')
    .filter(Boolean)
    .map((s) => s.replace(/\[\]$/, ''));

/** `shape`'s properties cut to `paths` (segments): a path that ends at a property keeps it whole. */
function cutProperties(shape: TObject, paths: string[][], title: string): Record<string, TSchema> {
  const kept: Record<string, TSchema> = {};
  for (const [key, prop] of Object.entries(shape.properties)) {
    const under = paths.filter((p) => p[0] === key);
    if (under.length === 0) continue;
    if (under.some((p) => p.length === 1)) {
      kept[key] = prop;
      continue;
    }
    // An object (nullable or optional: the modifiers are kept by the spread) cut to the rest of the paths.
    if (prop.type !== 'object' || !prop.properties) throw new Error(`${title}: ${key} is not an object, so no path goes into it`);
    const properties = cutProperties(
      prop as TObject,
      under.map((p) => p.slice(1)),
      title,
    );
    kept[key] = { ...prop, properties, required: (prop.required as string[] | undefined)?.filter((k) => k in properties) };
  }
  return kept;
}

/** `shape` with only `fields` (and `id`), as a read shape of its own (`title` names its statement). */
export function projection(shape: TObject, fields: readonly string[], title: string): TObject {
  return Type.Object(cutProperties(shape, [['id'], ...fields.map(segments)], title), { title });
}

/** Whether every path of `include` is one of `fields` (or `id`), or lies within one. */
export function within(include: readonly string[], fields: readonly string[]): boolean {
  const kept = [['id'], ...fields.map(segments)];
  return include.every((path) => {
    const asked = segments(path);
    return asked.length === 0 || kept.some((field) => field.length <= asked.length && field.every((s, i) => asked[i] === s));
  });
}
