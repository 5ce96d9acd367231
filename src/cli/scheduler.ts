// `muster scheduler`: the periodic tasks, listed or run until SIGTERM/SIGINT.
import { Command } from 'commander';
import pino from 'pino';
import { loadSettings, readSettings } from '../config.ts';
import { openReady } from '../app/bootstrap.ts';
import { checkSchedulerSettings, createScheduler, scheduledTasks } from '../app/tasks.ts';
import { EmbeddedOpenError } from '../db/embedded.ts';
import { atText, periodText } from '../jobs/schedule.ts';
import { Scheduler } from '../jobs/scheduler.ts';
import { loadPluginPackages } from '../plugins/registry.ts';
import { flushTraces } from '../lib/telemetry/tracing.ts';
import { formatTable } from './table.ts';

const collect = (v: string, prev: string[] = []) => [...prev, v];

export function schedulerCommand(): Command {
  const scheduler = new Command('scheduler').description('List and run the periodic tasks');

  scheduler
    .command('list')
    .description('List the periodic tasks with their period and time of day')
    .action(() => {
      // Listing needs no database: the tasks are declared in code.
      const tasks = scheduledTasks({} as never, readSettings());
      console.log(
        formatTable(
          ['Task Name', 'Period', 'At Time'],
          tasks.map((t) => [t.name, periodText(t.schedule), atText(t.schedule)]),
        ),
      );
    });

  scheduler
    .command('start')
    .description('Run the periodic tasks until SIGTERM or SIGINT')
    .argument('[tasks...]', 'only these tasks')
    .option('--exclude <task>', 'leave this task out (repeatable)', collect, [])
    .option('--eager', 'run each named task once at start')
    .action(async (names: string[], opts: { exclude: string[]; eager?: boolean }) => {
      const settings = loadSettings();
      checkSchedulerSettings(settings);
      await loadPluginPackages(settings.plugins);
      // Unknown names fail before the database is opened.
      const selected = Scheduler.select(scheduledTasks({} as never, settings), names, opts.exclude);
      let database: Awaited<ReturnType<typeof openReady>>;
      try {
        database = await openReady(settings);
      } catch (err) {
        if (err instanceof EmbeddedOpenError && /in use by process/.test(err.message))
          throw new Error(`${err.message}. A server on the embedded database runs the scheduler itself: there is no need for muster scheduler start.`);
        throw err;
      }
      const log = pino({ level: settings.logLevel });
      const s = createScheduler(database, settings, log, names, opts.exclude);
      if (opts.eager && names.length) await s.runEagerly(selected);
      s.start();
      console.log(`Scheduler running ${selected.length} task(s) in ${settings.schedulerTz} (pid ${process.pid})`);
      const stop = async (signal: string) => {
        console.log(`${signal}: stopping the scheduler`);
        await s.stop(settings.shutdownTimeout > 0 ? Math.min(settings.shutdownTimeout, 10_000) : 10_000);
        // Spans of the last tasks' plugin calls are still batched in memory: send them before exiting.
        await flushTraces();
        await database.close();
        process.exit(0);
      };
      process.once('SIGINT', stop);
      process.once('SIGTERM', stop);
    });

  return scheduler;
}
