// Folders that import each other in a circle. dependency-cruiser's no-circular rule sees files only:
// a.ts -> b.ts in one folder and b2.ts -> a2.ts in the other is no file cycle, yet neither folder can
// then be understood, moved or tested without the other. Here each domain (src/domains/<name>/) is
// one folder, each other folder of src/ (crud, list, server, ...) is one, and a file directly in src/
// (config.ts) is its own. Imports of a domain's shapes (schema.ts), tables (table.ts) and reference
// target (target.ts: the table and the columns that name a record in other bodies) do not count: they
// hold no behaviour, and any domain may name them (docs/architecture.md).

/** One import between two files of src/, as dependency-cruiser resolved it. */
export interface Import {
  from: string;
  to: string;
}

/** An import known to close a circle, allowed until the circle is gone (see lint/order.ts). */
export interface AllowedImport extends Import {
  why: string;
}

/** The folder a file of src/ belongs to, with a trailing slash: src/domains/case/, src/crud/, src/config.ts. */
export function folderOf(file: string): string {
  const domain = /^src\/domains\/[^/]+\//.exec(file);
  if (domain) return domain[0];
  const top = /^src\/[^/]+\//.exec(file);
  return top ? top[0] : file;
}

/** Whether an import counts for the order between folders: a domain's shapes, tables and target do not. */
export const counts = (to: string): boolean => !/^src\/domains\/[^/]+\/(schema|table|target)\.ts$/.test(to);

type Graph = Map<string, Map<string, Import[]>>;

/** Folder -> folder -> the imports that make the edge, for imports that count, between different folders. */
export function folderGraph(imports: Import[]): Graph {
  const graph: Graph = new Map();
  for (const i of imports) {
    const from = folderOf(i.from);
    const to = folderOf(i.to);
    if (from === to || !counts(i.to)) continue;
    let out = graph.get(from);
    if (!out) graph.set(from, (out = new Map()));
    let edge = out.get(to);
    if (!edge) out.set(to, (edge = []));
    edge.push(i);
  }
  for (const edge of [...graph.values()].flatMap((out) => [...out.values()])) edge.sort((a, b) => a.from.localeCompare(b.from) || a.to.localeCompare(b.to));
  return graph;
}

/** The strongly connected components of more than one folder (Tarjan), each sorted, in sorted order. */
export function circles(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (v: string) => {
    index.set(v, index.size);
    low.set(v, index.get(v)!);
    stack.push(v);
    onStack.add(v);
    for (const w of [...(graph.get(v)?.keys() ?? [])].sort()) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, index.get(w)!));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found.sort((a, b) => a[0].localeCompare(b[0]));
}

/** The shortest path of folders from `start` to `goal` (both included), or undefined. */
function path(graph: Graph, start: string, goal: string, within?: Set<string>): string[] | undefined {
  const previous = new Map<string, string>([[start, start]]);
  const queue = [start];
  while (queue.length) {
    const v = queue.shift()!;
    for (const w of [...(graph.get(v)?.keys() ?? [])].sort()) {
      if (within && !within.has(w)) continue;
      if (w === goal) {
        const steps = [w, v];
        for (let u = v; u !== start; u = previous.get(u)!) steps.push(previous.get(u)!);
        return steps.reverse();
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return undefined;
}

/** A circle through a component's first folder, one import named per step. */
function describe(graph: Graph, component: string[]): string {
  const steps = path(graph, component[0], component[0], new Set(component))!;
  const lines = [`  ${steps.join(' -> ')}${component.length > steps.length - 1 ? `  (all of ${component.join(', ')} reach each other)` : ''}`];
  for (let k = 0; k + 1 < steps.length; k++) {
    const i = graph.get(steps[k])!.get(steps[k + 1])![0];
    lines.push(`    ${i.from} imports ${i.to}`);
  }
  return lines.join('\n');
}

const same = (a: Import, b: Import) => a.from === b.from && a.to === b.to;

/** What is wrong with the order between folders, as readable messages; none when all is well. */
export function problems(imports: Import[], allowed: AllowedImport[]): string[] {
  const found: string[] = [];
  const full = folderGraph(imports);
  for (const a of allowed) {
    if (!imports.some((i) => same(i, a))) found.push(`The allowed import ${a.from} -> ${a.to} is gone: remove it from the allowlist.`);
    else if (!path(full, folderOf(a.to), folderOf(a.from)))
      found.push(`The allowed import ${a.from} -> ${a.to} no longer closes a circle: remove it from the allowlist.`);
  }
  const graph = folderGraph(imports.filter((i) => !allowed.some((a) => same(a, i))));
  const components = circles(graph);
  if (components.length) {
    found.push(
      [
        'Folders that import each other in a circle (each layer imports only layers below it, docs/architecture.md):',
        ...components.map((c) => describe(graph, c)),
      ].join('\n'),
    );
  }
  return found;
}
