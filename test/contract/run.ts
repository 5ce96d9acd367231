// Matches the operations Muster serves with the contract's, runs the comparison on each, applies
// the allow-list and writes the report the contract test prints.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { allowedBy, DEVIATIONS, MUSTER_EXTRAS, type Deviation } from './allowlist.ts';
import { METHODS, OperationComparer, pathShape, type Mismatch } from './compare.ts';
import type { Json } from './schema.ts';

/** Dispatch's OpenAPI document: the shared reference next to the repository, or CONTRACT_OPENAPI. */
export const CONTRACT_FILE = process.env.CONTRACT_OPENAPI ?? fileURLToPath(new URL('../../../shared/reference/dispatch-openapi.yaml', import.meta.url));
export const API_PREFIX = '/api/v1';

/** Muster's own routes, outside the contract and outside the comparison. */
export const isOwnRoute = (path: string) => path === '/healthcheck' || path.startsWith('/healthcheck/') || path === '/docs' || path.startsWith('/docs/');

export function loadContract(file = CONTRACT_FILE): Json {
  return parse(readFileSync(file, 'utf8'));
}

export interface Operation {
  method: string; // upper case
  path: string; // without /api/v1, `{param}` style
  op: Json;
}

export const opKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

export function operationsOf(doc: Json, prefix = ''): Operation[] {
  const out: Operation[] = [];
  for (const [rawPath, item] of Object.entries<Json>(doc.paths ?? {})) {
    if (prefix && !rawPath.startsWith(`${prefix}/`)) continue;
    const path = rawPath.slice(prefix.length);
    for (const m of METHODS) if (item[m] && m !== 'head' && m !== 'options') out.push({ method: m.toUpperCase(), path, op: item[m] });
  }
  return out;
}

/** Fastify's `/:organization/tags/:tag_id` as `/{organization}/tags/{tag_id}`. */
export const fromFastifyPath = (url: string) => url.replace(/:([A-Za-z_][A-Za-z0-9_]*)(\([^)]*\))?/g, '{$1}').replace(/\/$/, '') || '/';

export interface Result {
  contractTotal: number;
  served: { key: string; contractKey?: string }[];
  mismatches: Mismatch[];
  allowed: { mismatch: Mismatch; deviation: Deviation }[];
  unusedDeviations: Deviation[];
  tags: { tag: string; served: number; total: number }[];
}

/**
 * `ourDoc`: Muster's generated OpenAPI. `routes`: every method and URL Fastify serves (from the
 * onRoute hook), so that a route left out of our OpenAPI cannot escape the comparison. `extras`:
 * the operations served beyond the contract (Muster's own list unless a test gives another).
 */
export function compareAll(contract: Json, ourDoc: Json, routes: { method: string; url: string }[], extras: { op: string }[] = MUSTER_EXTRAS): Result {
  const contractOps = operationsOf(contract);
  const byKey = new Map(contractOps.map((o) => [opKey(o.method, o.path), o]));
  const byShape = new Map<string, Operation[]>();
  for (const o of contractOps) {
    const k = opKey(o.method, pathShape(o.path));
    byShape.set(k, [...(byShape.get(k) ?? []), o]);
  }

  const ours = operationsOf(ourDoc, API_PREFIX).filter((o) => !isOwnRoute(o.path));
  const mismatches: Mismatch[] = [];
  const served: Result['served'] = [];

  const documented = new Set(ours.map((o) => opKey(o.method, o.path)));
  for (const r of routes) {
    if (!r.url.startsWith(`${API_PREFIX}/`)) continue;
    const path = fromFastifyPath(r.url.slice(API_PREFIX.length));
    const method = r.method.toUpperCase();
    if (isOwnRoute(path) || method === 'HEAD' || method === 'OPTIONS') continue;
    if (!documented.has(opKey(method, path))) {
      mismatches.push({
        op: opKey(method, path),
        kind: 'operation.undocumented',
        where: 'operation',
        message: 'served, but missing from our OpenAPI (hidden or without a schema)',
      });
    }
  }

  for (const o of ours) {
    const key = opKey(o.method, o.path);
    const candidates = byKey.get(key) ? [byKey.get(key)!] : (byShape.get(opKey(o.method, pathShape(o.path))) ?? []);
    if (candidates.length !== 1) {
      served.push({ key });
      if (!extras.some((x) => x.op === key)) {
        const message = candidates.length
          ? `matches several contract operations by shape (${candidates.map((c) => opKey(c.method, c.path)).join(', ')}), none by name`
          : 'served, but not in the contract (add it to MUSTER_EXTRAS with a reason if it is meant to be)';
        mismatches.push({ op: key, kind: 'operation.unknown', where: 'operation', message });
      }
      continue;
    }
    const c = candidates[0];
    const contractKey = opKey(c.method, c.path);
    served.push({ key, contractKey });
    mismatches.push(...new OperationComparer(contract, ourDoc, contractKey).compare(c.path, c.op, o.path, o.op));
  }

  const allowed: Result['allowed'] = [];
  const failing: Mismatch[] = [];
  for (const m of mismatches) {
    const deviation = DEVIATIONS.find((d) => allowedBy(m, d));
    if (deviation) allowed.push({ mismatch: m, deviation });
    else failing.push(m);
  }
  // An entry is stale when it names served operations and none of them needs it any more. Entries
  // for every operation, or for operations not served yet, wait for the code they describe.
  const servedKeys = new Set(served.map((s) => s.contractKey).filter(Boolean));
  const unusedDeviations = DEVIATIONS.filter((d) => !allowed.some((a) => a.deviation === d) && (d.ops ?? []).some((op) => servedKeys.has(op)));
  const staleExtras = extras.filter((x) => !served.some((s) => s.key === x.op));
  for (const x of staleExtras) failing.push({ op: x.op, kind: 'allowlist.stale', where: 'MUSTER_EXTRAS', message: 'listed as a Muster extra, but not served' });

  const tagTotals = new Map<string, { served: number; total: number }>();
  for (const c of contractOps) {
    for (const tag of new Set<string>(c.op.tags ?? ['(untagged)'])) {
      const t = tagTotals.get(tag) ?? { served: 0, total: 0 };
      t.total++;
      if (servedKeys.has(opKey(c.method, c.path))) t.served++;
      tagTotals.set(tag, t);
    }
  }

  return {
    contractTotal: contractOps.length,
    served,
    mismatches: failing,
    allowed,
    unusedDeviations,
    tags: [...tagTotals].map(([tag, t]) => ({ tag, ...t })),
  };
}

/** The report, as lines. */
export function formatResult(r: Result): string[] {
  const lines: string[] = [];
  const inContract = r.served.filter((s) => s.contractKey).length;
  lines.push(
    `Contract: Muster serves ${inContract} of ${r.contractTotal} operations${r.served.length > inContract ? ` (+${r.served.length - inContract} not in the contract)` : ''}`,
  );

  const started = r.tags.filter((t) => t.served > 0).sort((a, b) => a.tag.localeCompare(b.tag));
  const waiting = r.tags.filter((t) => t.served === 0).sort((a, b) => a.tag.localeCompare(b.tag));
  lines.push(
    ...wrap(
      'Tags served: ',
      started.map((t) => `${t.tag} ${t.served}/${t.total}`),
    ),
  );
  lines.push(
    ...wrap(
      'Tags not started: ',
      waiting.map((t) => `${t.tag} 0/${t.total}`),
    ),
  );

  if (r.allowed.length) {
    const counts = new Map<Deviation, number>();
    for (const a of r.allowed) counts.set(a.deviation, (counts.get(a.deviation) ?? 0) + 1);
    lines.push(`Allowed deviations: ${r.allowed.length} (${[...counts].map(([d, n]) => `${d.kind} ${d.where}: ${n}`).join('; ')})`);
  }
  if (r.unusedDeviations.length) {
    lines.push(`Allow-list entries no served operation needs any more (${r.unusedDeviations.length}):`);
    for (const d of r.unusedDeviations) lines.push(`  - ${d.kind} ${d.where} [${(d.ops ?? []).join(', ')}]`);
  }
  if (r.mismatches.length === 0) {
    lines.push('Mismatches: none');
    return lines;
  }
  lines.push(`Mismatches: ${r.mismatches.length}`);
  const byOp = new Map<string, Mismatch[]>();
  for (const m of r.mismatches) byOp.set(m.op, [...(byOp.get(m.op) ?? []), m]);
  for (const [op, ms] of [...byOp].sort(([a], [b]) => a.localeCompare(b))) {
    lines.push(`  ${op}`);
    for (const m of ms) lines.push(`    [${m.kind}] ${m.where}: ${m.message}`);
  }
  return lines;
}

function wrap(head: string, words: string[], width = 110): string[] {
  if (words.length === 0) return [];
  const out: string[] = [];
  let line = head;
  for (const w of words) {
    const piece = line === head ? w : `, ${w}`;
    if (line.length + piece.length > width && line !== head) {
      out.push(`${line},`);
      line = ' '.repeat(head.length) + w;
    } else line += piece;
  }
  out.push(line);
  return out;
}
