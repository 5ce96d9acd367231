// Teardown of everything a benchmark starts: child processes, database clusters, databases and
// temporary directories. Tasks run last-registered first, on a normal finish, on an error, and on
// Ctrl-C or SIGTERM; if the process exits before they ran, each task's synchronous fallback runs.

interface Task {
  name: string;
  run: () => Promise<void> | void;
  /** Best effort from the 'exit' event, where nothing asynchronous can run. */
  runSync?: () => void;
}

const tasks: Task[] = [];
let running: Promise<void> | undefined;

/** Registers a teardown step; the returned function runs it now (once) and unregisters it. */
export function onCleanup(name: string, run: Task['run'], runSync?: Task['runSync']): () => Promise<void> {
  const task: Task = { name, run, runSync };
  tasks.push(task);
  return async () => {
    const i = tasks.indexOf(task);
    if (i < 0) return;
    tasks.splice(i, 1);
    await task.run();
  };
}

/** Runs every registered step, newest first; a failing step is reported and the rest still run. */
export function cleanupAll(): Promise<void> {
  running ??= (async () => {
    while (tasks.length) {
      const task = tasks.pop()!;
      try {
        await task.run();
      } catch (err) {
        console.error(`cleanup: ${task.name}: ${(err as Error).message}`);
      }
    }
  })();
  return running;
}

function cleanupSync() {
  while (tasks.length) {
    const task = tasks.pop()!;
    try {
      task.runSync?.();
    } catch {
      /* exiting anyway */
    }
  }
}

let installed = false;

/**
 * Ctrl-C, SIGTERM and SIGHUP tear down and exit with 128 + the signal number; a second signal
 * skips to the synchronous fallbacks. `beforeCleanup` stops work in flight (a running load test).
 */
export function installSignalHandlers(beforeCleanup?: () => void) {
  if (installed) return;
  installed = true;
  const codes: Record<string, number> = { SIGINT: 2, SIGTERM: 15, SIGHUP: 1 };
  let signalled = false;
  for (const [signal, n] of Object.entries(codes)) {
    process.on(signal, () => {
      if (signalled) {
        cleanupSync();
        process.exit(128 + n);
      }
      signalled = true;
      console.error(`\n${signal}: stopping servers and removing temporary files`);
      beforeCleanup?.();
      void cleanupAll().finally(() => process.exit(128 + n));
    });
  }
  process.on('exit', cleanupSync);
}
