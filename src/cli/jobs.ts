// `muster jobs`: what the background job queues hold, and sending a failed job round again.
import { Command, Option } from 'commander';
import { loadSettings } from '../config.ts';
import { openReady } from '../app/bootstrap.ts';
import { JobNotFound, listJobs, retryJob, type JobRow } from '../jobs/admin.ts';
import { formatTable } from './table.ts';

const when = (d: Date | null) => (d ? new Date(d).toISOString().replace(/\.\d{3}Z$/, 'Z') : '');

/** The last run's error, on one line. */
function outcome(row: JobRow): string {
  const out = row.output as { message?: string } | null;
  if (!out) return '';
  const text = typeof out.message === 'string' ? out.message : JSON.stringify(out);
  return text.replace(/\s+/g, ' ').slice(0, 120);
}

export function jobsCommand(): Command {
  const jobs = new Command('jobs').description('Inspect and retry background jobs');

  jobs
    .command('list')
    .description('List the newest jobs (failed ones with --failed)')
    .option('--failed', 'only jobs that failed after their last retry')
    .addOption(new Option('--queue <name>', 'only jobs of this queue (repeatable)').argParser((v: string, prev: string[] = []) => [...prev, v]))
    .addOption(new Option('--limit <n>', 'at most this many').default(50).argParser((v) => Number.parseInt(v, 10)))
    .option('--json', 'one JSON object per line instead of a table')
    .action(async (opts: { failed?: boolean; queue?: string[]; limit: number; json?: boolean }) => {
      const database = await openReady(loadSettings());
      try {
        const rows = await listJobs(database, { failed: opts.failed, names: opts.queue, limit: opts.limit });
        if (opts.json) {
          for (const r of rows) console.log(JSON.stringify(r));
          return;
        }
        console.log(
          formatTable(
            ['Id', 'Queue', 'State', 'Attempts', 'Created', 'Finished', 'Last error'],
            rows.map((r) => [
              r.id,
              r.name,
              r.state,
              `${r.retry_count + (r.state === 'created' ? 0 : 1)}/${r.retry_limit + 1}`,
              when(r.created_on),
              when(r.completed_on),
              r.state === 'completed' ? '' : outcome(r),
            ]),
          ),
        );
      } finally {
        await database.close();
      }
    });

  jobs
    .command('retry')
    .description('Run a failed job again, with its retries reset')
    .argument('<id>', 'the job id (from muster jobs list)')
    .action(async (id: string) => {
      const database = await openReady(loadSettings());
      try {
        const row = await retryJob(database, id);
        console.log(`Job ${row.id} (${row.name}) will run again`);
      } catch (err) {
        if (err instanceof JobNotFound) throw new Error(err.message);
        throw err;
      } finally {
        await database.close();
      }
    });

  return jobs;
}
