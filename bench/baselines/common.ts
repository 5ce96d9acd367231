// What every baseline server shares: listening on PORT, and stopping on SIGTERM/SIGINT or when the
// benchmark process that started it disappears (its IPC channel closes).
import type { FastifyInstance } from 'fastify';

export async function listen(app: FastifyInstance) {
  const port = Number(process.env.PORT ?? 0);
  await app.listen({ host: '127.0.0.1', port });
  console.log(`listening on 127.0.0.1:${port} (pid ${process.pid})`);
}

export function exitWithParent(close: () => Promise<unknown>) {
  let closing = false;
  const stop = () => {
    if (closing) return;
    closing = true;
    close().finally(() => process.exit(0));
    setTimeout(() => process.exit(0), 3000).unref();
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
  process.once('disconnect', stop);
}
