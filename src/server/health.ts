// Liveness and readiness. `/healthcheck` is Dispatch's: it answers ok whenever the process serves
// HTTP. `/healthcheck/ready` is for load balancers and orchestrators: 200 when every readiness check
// passes within MUSTER_READY_TIMEOUT, else 503 naming the failed checks, and 503 from the moment the
// server starts stopping. Parts of Muster that a node needs in order to serve (the database now,
// the job queue later) add a check with `addReadinessCheck`.
import { unavailableCause } from '../db/errors.ts';
import { errors } from './errors.ts';
import type { App } from './routing.ts';

export interface ReadinessCheck {
  /** Short name, shown in the 503's detail: `database`. */
  name: string;
  /** Resolves when the part is ready; rejects (or outlasts the timeout) when it is not. */
  check(): Promise<void>;
}

export interface Readiness {
  checks: ReadinessCheck[];
  /** Set when the server starts stopping: readiness fails at once, so that balancers drain the node. */
  stopping: boolean;
}

/** Why a check failed, in words that carry no request value. */
function reasonOf(err: unknown): string {
  const cause = unavailableCause(err);
  if (cause) return cause;
  const e = err as { code?: unknown; constructor?: { name?: string } };
  return typeof e?.code === 'string' ? `failed (${e.code})` : `failed (${e?.constructor?.name ?? 'error'})`;
}

/** Runs every check side by side, each bounded by `timeoutMs`; the failures, in check order. */
export async function runReadinessChecks(checks: ReadinessCheck[], timeoutMs: number): Promise<{ check: string; reason: string }[]> {
  const results = await Promise.all(
    checks.map(async (c) => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<string>((ok) => {
        timer = setTimeout(() => ok(`no answer within ${timeoutMs} ms`), timeoutMs);
      });
      const outcome = c.check().then(
        () => null,
        (err) => reasonOf(err),
      );
      const reason = await Promise.race([outcome, timeout]);
      clearTimeout(timer);
      return reason === null ? null : { check: c.name, reason };
    }),
  );
  return results.filter((r): r is { check: string; reason: string } => r !== null);
}

export function healthRoutes(readiness: Readiness, timeoutMs: number) {
  return async (api: App) => {
    api.get('/healthcheck', { schema: { hide: true }, config: { auth: false } }, async () => ({ status: 'ok' }));
    api.get('/healthcheck/ready', { schema: { hide: true }, config: { auth: false } }, async () => {
      if (readiness.stopping) throw errors.notReady([{ check: 'server', reason: 'shutting down' }]);
      const failures = await runReadinessChecks(readiness.checks, timeoutMs);
      if (failures.length) throw errors.notReady(failures);
      return { status: 'ok', checks: Object.fromEntries(readiness.checks.map((c) => [c.name, 'ok'])) };
    });
  };
}
