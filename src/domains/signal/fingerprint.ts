// The entities of an instance (its definition's entity types run over `raw`) and its fingerprint.
import { createHash } from 'node:crypto';
import { invalid } from '../../server/errors.ts';
import { ExtractionTimeout, extractAll, extractEach } from '../entity_type/extract.ts';
import type { Definition } from './definitions.ts';

export interface Found {
  typeId: number;
  value: string;
}

/**
 * The fingerprint of an instance: SHA-256 (hex) of the JSON array `[signal id, [[entity type id,
 * value], ...]]`, the pairs unique and sorted by type id, then value. Instances of one definition
 * with the same entities share it; the rest of `raw` (timestamps, ids) does not count.
 */
export function fingerprintOf(signalId: number, found: Found[]): string {
  const pairs = [...new Map(found.map((f) => [`${f.typeId}\u0000${f.value}`, [f.typeId, f.value] as const])).values()].sort(
    (a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0),
  );
  return createHash('sha256')
    .update(JSON.stringify([signalId, pairs]))
    .digest('hex');
}

/** The (type, value) pairs the definition's entity types find in `raw`, each once; 422 when a regular expression runs out of time. */
export function extractEntities(def: Definition, raw: Record<string, unknown>): Found[] {
  let values: string[][];
  try {
    values = extractAll(def.entity_types, raw);
  } catch (err) {
    if (!(err instanceof ExtractionTimeout)) throw err;
    throw invalid(
      ['body', 'raw'],
      `Entity extraction took longer than ${err.budgetMs} ms (entity types of signal ${def.name}: ${def.entity_types.map((t) => t.name).join(', ')}); a regular expression backtracks.`,
      'value_error.entity_extraction.timeout',
    );
  }
  return pairsOf(def, values);
}

function pairsOf(def: Definition, values: string[][]): Found[] {
  const found = def.entity_types.flatMap((t, i) => values[i].map((value) => ({ typeId: t.id, value })));
  return [...new Map(found.map((f) => [`${f.typeId}\u0000${f.value}`, f])).values()];
}

/**
 * extractEntities for a batch, in one sandboxed call; when that runs out of time, each document
 * alone, so that only those whose extraction backtracks fail (each with its error).
 */
export function extractBatch(docs: { def: Definition; raw: Record<string, unknown> }[]): (Found[] | Error)[] {
  try {
    const values = extractEach(docs.map((d) => ({ types: d.def.entity_types, data: d.raw })));
    return docs.map((d, i) => pairsOf(d.def, values[i]));
  } catch {
    return docs.map((d) => attempt(() => extractEntities(d.def, d.raw)));
  }
}

function attempt<T>(fn: () => T): T | Error {
  try {
    return fn();
  } catch (err) {
    return err as Error;
  }
}
