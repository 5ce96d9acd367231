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
 * PUT `path` (under /api/v1) with `body(base, changes)`, conditional on `base`'s tag; on 412 (or when
 * that version is no longer known) rebased once on the record as it is now.
 */
export async function saveChanges<T, C extends object, B>(
  path: string,
  base: T,
  changes: C,
  body: (record: T, changes: C) => B,
  describe: (body: B) => Record<string, string>,
): Promise<Saved<T>> {
  const put = (record: T) => {
    return api<T>(path, { method: 'PUT', body: body(record, changes), headers: ifMatch(path, record) });
  };
  if (tagOf(path, base)) {
    try {
      return { read: await put(base), theirs: [] };
    } catch (error) {
      if (!(error instanceof ApiError && error.status === 412)) throw error;
    }
  }
  const fresh = await api<T>(path);
  const unchanged = {} as C;
  const [was, now, mine] = [describe(body(base, unchanged)), describe(body(fresh, unchanged)), describe(body(base, changes))];
  const theirs = differing(was, now);
  const clashes = theirs.filter((f) => mine[f] !== was[f] && mine[f] !== now[f]).map((field) => ({ field, mine: mine[field], theirs: now[field] }));
  if (clashes.length) throw new SaveConflict(fresh, clashes);
  return { read: await put(fresh), theirs: theirs.map((field) => ({ field, value: now[field] })) };
}
