// A span per statement on the embedded database, as db/connection.ts makes one on a server: PGlite
// runs everything through its instance's query() and exec(), or through the same methods of a
// transaction's handle, so those are what is wrapped. The same wrappers tell the watches of
// table-writes.ts what has run.
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { statementSpan } from '../lib/telemetry/tracing.ts';
import { ranStatement } from './table-writes.ts';

/** Runs `run` inside the span of statement `text` (when traced). */
export async function asStatement<T>(text: string, run: () => Promise<T>): Promise<T> {
  const end = statementSpan(text);
  if (!end) return run();
  try {
    const out = await run();
    end();
    return out;
  } catch (err) {
    end(err);
    throw err;
  }
}

type Runner = Pick<PGlite, 'query' | 'exec'>;

function wrapStatements<T extends Runner>(target: T, pglite: PGlite): T {
  const wrap =
    (run: (...a: unknown[]) => Promise<unknown>) =>
    async (text: string, ...rest: unknown[]) => {
      const out = await asStatement(text, () => run(text, ...rest));
      ranStatement(pglite, text);
      return out;
    };
  target.query = wrap(target.query.bind(target) as (...a: unknown[]) => Promise<unknown>) as T['query'];
  target.exec = wrap(target.exec.bind(target) as (...a: unknown[]) => Promise<unknown>) as T['exec'];
  return target;
}

/** `pglite`, its statements and those of its transactions traced; the same instance, changed once. */
export function tracedPglite(pglite: PGlite): PGlite {
  if ((pglite as { traced?: boolean }).traced) return pglite;
  wrapStatements(pglite, pglite);
  const transaction = pglite.transaction.bind(pglite);
  pglite.transaction = (<T>(run: (tx: Transaction) => Promise<T>) => transaction((tx) => run(wrapStatements(tx, pglite)))) as PGlite['transaction'];
  (pglite as { traced?: boolean }).traced = true;
  return pglite;
}
