// The entities of an instance (its definition's entity types run over `raw`) and its fingerprint.
import { createHash } from 'node:crypto';
import { extractAll, type Refused } from '../entity_type/extract.ts';
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

/**
 * The (type, value) pairs the definition's entity types find in `raw`, each once. A type whose
 * pattern RE2 refuses (saved before patterns were checked as they are now) finds nothing and is
 * reported to `refused`.
 */
export function extractEntities(def: Definition, raw: Record<string, unknown>, refused?: (r: Refused) => void): Found[] {
  const values = extractAll(def.entity_types, raw, refused);
  const found = def.entity_types.flatMap((t, i) => values[i].map((value) => ({ typeId: t.id, value })));
  return [...new Map(found.map((f) => [`${f.typeId}\u0000${f.value}`, f])).values()];
}
