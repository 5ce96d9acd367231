// The callers of the embedded database, kept between requests. Every authenticated request looks up
// its caller (user, organization, role, tokens_valid_after: resolveCaller); on the embedded database
// that lookup waits its turn on the one connection behind whatever holds it (a batch of signal
// instances being written, a job), and a burst of requests spends as much on finding its callers as
// on its own work. This process owns that database, and every statement on it goes through this
// process (db/table-writes.ts): each statement that writes a user, an organization or a membership
// drops every caller kept, before the code that wrote it goes on. A changed password, a deactivated
// or removed user, a removed or changed membership or role stop working at the next request.
//
// On PostgreSQL other processes and hosts write the same tables, so nothing is kept there: the
// lookup stays one statement per request (docs/architecture.md, "The caller of a request").
import type { Database } from '../../db/connection.ts';
import { watchWrites } from '../../db/table-writes.ts';

/** The tables a caller is read from (resolveCaller); rows that cascade into them come from these too. */
const CALLER_TABLES = ['app_user', 'organization', 'user_organization'];
/** More callers than this at once (a process serving many people): all are dropped, and kept again as they come. */
const MAX_CALLERS = 10_000;

export interface CallerCache<T> {
  /** The caller kept under `key`, or undefined; else `load` runs and its answer is kept unless a caller table was written meanwhile. */
  get(key: string, load: () => Promise<T>): Promise<T>;
  /** Stops watching the database. */
  close(): void;
}

/** A cache of callers for `database` when this process owns it (embedded); undefined on PostgreSQL. */
export function callerCache<T>(database: Database): CallerCache<T> | undefined {
  if (database.kind !== 'embedded' || !database.pglite) return undefined;
  const kept = new Map<string, T>();
  // Bumped by every write: an answer read before a write is not kept after it.
  let generation = 0;
  const close = watchWrites(database.pglite, CALLER_TABLES, () => {
    generation++;
    kept.clear();
  });
  return {
    async get(key, load) {
      if (kept.has(key)) return kept.get(key) as T;
      const before = generation;
      const answer = await load();
      if (generation === before) {
        if (kept.size >= MAX_CALLERS) kept.clear();
        kept.set(key, answer);
      }
      return answer;
    },
    close,
  };
}
