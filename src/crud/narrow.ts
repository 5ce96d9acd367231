// A read cut to what a list's `include[]` keeps: the dashboards of the web UI ask for thousands of
// records with a dozen fields each, and reading every nested record of each (its people, related
// records) only for `include[]` to drop them costs most of the answer's time. The row's own columns
// are read as ever; of what it nests, only the fields `include[]` names (by their first segment)
// are read, with those others they are computed from (`needs`). The item is then cut by
// applyInclude as before, so the answer is the same.
import type { ReadDef } from './reader.ts';

/** The fields of a def a read nests: project, references, links, children, computed fields. */
const NESTING = ['refs', 'links', 'children', 'computed'] as const;

// One narrowed def per def and set of kept fields: a def is what a reader (and its prepared
// statements) is made once for. The sets are subsets of the def's own nested fields, so bounded.
const narrowed = new WeakMap<ReadDef, Map<string, ReadDef>>();

/** The first segment of each `include[]` path, as applyInclude reads it (`tags[].name` -> `tags`). */
function topFields(include: string[]): Set<string> {
  const top = new Set<string>();
  for (const path of include) {
    const head = path.split('.').find(Boolean);
    if (head) top.add(head.endsWith('[]') ? head.slice(0, -2) : head);
  }
  return top;
}

/**
 * `def` reading only the nested fields `include[]` keeps (all of them when it is empty). `needs`:
 * fields computed from nested ones after the read (`total_cost` from `incident_costs`).
 */
export function narrowRead(def: ReadDef, include: string[], needs: Record<string, string[]> = {}): ReadDef {
  if (include.length === 0) return def;
  const top = topFields(include);
  for (const [field, from] of Object.entries(needs)) if (top.has(field)) for (const f of from) top.add(f);
  const withProject = def.projectScoped !== false && top.has('project');
  const kept = NESTING.map((kind) => Object.keys(def[kind] ?? {}).filter((f) => top.has(f)));
  const key = JSON.stringify([withProject, kept]);
  let byKey = narrowed.get(def);
  if (!byKey) narrowed.set(def, (byKey = new Map()));
  const known = byKey.get(key);
  if (known) return known;
  const cut: ReadDef = { ...def, projectScoped: withProject ? def.projectScoped : false };
  NESTING.forEach((kind, i) => {
    const all = def[kind] as Record<string, unknown> | undefined;
    // None kept reads as none declared (a def without links may be built inside another's query).
    if (all) (cut as Record<string, unknown>)[kind] = kept[i].length ? Object.fromEntries(kept[i].map((f) => [f, all[f]])) : undefined;
  });
  byKey.set(key, cut);
  return cut;
}
