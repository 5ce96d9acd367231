// Saves that lose nobody's work. A change is sent as the version it was based on plus only what this
// person changed, with If-Match naming that version. When someone else saved meanwhile the API answers
// 412: the record is read again and the same changes are put on top of the other person's, unless
// both changed the same field, which is then shown side by side for the person to decide.
import { ApiError, api } from './client.ts';
import { ifMatch, tagOf } from './versions.ts';

export interface Change {
  field: string;
  value: string;
}

export interface Clash {
  field: string;
  mine: string;
  theirs: string;
}

/** Both changed the same field: nothing was saved. */
export class SaveConflict<T> extends Error {
  constructor(
    readonly fresh: T,
    readonly clashes: Clash[],
  ) {
    super(`Someone else changed ${clashes.map((c) => c.field).join(', ')} while you edited it.`);
  }
}

export interface Saved<T> {
  read: T;
  /** What someone else changed between the version shown and this save (kept). */
  theirs: Change[];
}

const differing = (a: Record<string, string>, b: Record<string, string>) => Object.keys(a).filter((k) => a[k] !== b[k]);

/**
 * How many times a save is rebased on the record as it is now before it gives up. One is not enough
 * while others keep writing: the tag covers the whole record, its timeline included, and the effects
 * of a status change (or a chat bot) add entries between the read a rebase makes and its save.
 */
const REBASES = 4;

/** The pause before the rebase after `rebases` have failed: the writes in the way are usually a short burst. */
const pauseAfter = (rebases: number) => new Promise((resolve) => setTimeout(resolve, 150 * rebases));

/**
 * PUT `path` (under /api/v1) with `body(base, changes)`, conditional on `base`'s tag; on 412 (or when
 * that version is no longer known) rebased on the record as it is now, up to REBASES times.
 */
export async function saveChanges<T, C extends object, B>(
  path: string,
  base: T,
  changes: C,
  body: (record: T, changes: C) => B,
  describe: (body: B) => Record<string, string>,
): Promise<Saved<T>> {
  const unchanged = {} as C;
  const [was, mine] = [describe(body(base, unchanged)), describe(body(base, changes))];
  let [record, now] = [base, was];
  for (let rebases = 0; ; rebases++) {
    // A base whose version is not known is never sent: it could overwrite a newer one.
    if (rebases > 0 || tagOf(path, base)) {
      try {
        const read = await api<T>(path, { method: 'PUT', body: body(record, changes), headers: ifMatch(path, record) });
        return { read, theirs: differing(was, now).map((field) => ({ field, value: now[field] })) };
      } catch (error) {
        if (!(error instanceof ApiError && error.status === 412) || rebases === REBASES) throw error;
      }
      await pauseAfter(rebases);
    }
    const fresh = await api<T>(path);
    now = describe(body(fresh, unchanged));
    const clashes = differing(was, now)
      .filter((f) => mine[f] !== was[f] && mine[f] !== now[f])
      .map((field) => ({ field, mine: mine[field], theirs: now[field] }));
    if (clashes.length) throw new SaveConflict(fresh, clashes);
    record = fresh;
  }
}
