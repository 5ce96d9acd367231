// A span per statement on the embedded database, as db/connection.ts makes one on a server: PGlite
// runs everything through its instance's query() and exec(), or through the same methods of a
// transaction's handle, so those are what is wrapped.
import type { PGlite, Transaction } from '@electric-sql/pglite';
import { statementSpan } from '../lib/telemetry/tracing.ts';

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

function wrapStatements<T extends Runner>(target: T): T {
  const query = target.query.bind(target);
  const exec = target.exec.bind(target);
  target.query = ((text: string, ...rest: unknown[]) => asStatement(text, () => (query as (...a: unknown[]) => Promise<unknown>)(text, ...rest))) as T['query'];
  target.exec = ((text: string, ...rest: unknown[]) => asStatement(text, () => (exec as (...a: unknown[]) => Promise<unknown>)(text, ...rest))) as T['exec'];
  return target;
}

/** `pglite`, its statements and those of its transactions traced; the same instance, changed once. */
export function tracedPglite(pglite: PGlite): PGlite {
  if ((pglite as { traced?: boolean }).traced) return pglite;
  wrapStatements(pglite);
  const transaction = pglite.transaction.bind(pglite);
  pglite.transaction = (<T>(run: (tx: Transaction) => Promise<T>) => transaction((tx) => run(wrapStatements(tx)))) as PGlite['transaction'];
  (pglite as { traced?: boolean }).traced = true;
  return pglite;
}
