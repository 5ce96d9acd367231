// What an Owner sees of the job queues and can do about them: list jobs (those that failed for
// good among them), and send a failed job round again.
import type { Database } from '../db/connection.ts';
import { JOB_SCHEMA } from './queue.ts';

export interface JobRow {
  id: string;
  name: string;
  state: string;
  retry_count: number;
  retry_limit: number;
  created_on: Date;
  started_on: Date | null;
  completed_on: Date | null;
  /** What the last run answered or threw (a failure's message). */
  output: unknown;
  data: unknown;
}

export interface JobListOptions {
  /** Only jobs that exhausted their retries. */
  failed?: boolean;
  /** Only jobs of these queues. */
  names?: string[];
  limit?: number;
}

const COLUMNS = 'id::text AS id, name, state::text AS state, retry_count, retry_limit, created_on, started_on, completed_on, output, data';

/** The newest jobs first, archived ones included. */
export async function listJobs(database: Database, opts: JobListOptions = {}): Promise<JobRow[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (opts.failed) where.push(`state = 'failed'`);
  if (opts.names?.length) {
    params.push(opts.names);
    where.push(`name = ANY($${params.length}::text[])`);
  }
  params.push(opts.limit ?? 50);
  const filter = where.length ? `WHERE ${where.join(' AND ')}` : '';
  return database.query<JobRow>(
    `SELECT * FROM (SELECT ${COLUMNS} FROM ${JOB_SCHEMA}.job UNION ALL SELECT ${COLUMNS} FROM ${JOB_SCHEMA}.archive) j ${filter} ORDER BY created_on DESC, id LIMIT $${params.length}`,
    params,
  );
}

export class JobNotFound extends Error {}

/**
 * Sends a failed (or cancelled) job round again with its retries reset. An archived job is brought
 * back first. Throws JobNotFound for an unknown id or one that has not failed.
 */
export async function retryJob(database: Database, id: string): Promise<JobRow> {
  if (!/^[0-9a-f-]{36}$/i.test(id)) throw new JobNotFound(`no job with id ${id}`);
  let [row] = await database.query<JobRow>(`SELECT ${COLUMNS} FROM ${JOB_SCHEMA}.job WHERE id = $1`, [id]);
  if (!row) {
    const [archived] = await database.query<JobRow>(`SELECT ${COLUMNS} FROM ${JOB_SCHEMA}.archive WHERE id = $1`, [id]);
    if (!archived) throw new JobNotFound(`no job with id ${id}`);
    if (!RETRYABLE.includes(archived.state)) throw new JobNotFound(`job ${id} is ${archived.state}, not failed: nothing to retry`);
    const columns = await database.query<{ column_name: string }>(
      `SELECT column_name FROM information_schema.columns WHERE table_schema = $1 AND table_name = 'job' ORDER BY ordinal_position`,
      [JOB_SCHEMA],
    );
    const names = columns.map((c) => c.column_name).join(', ');
    // Out of the archive and back in the queue in one statement: never in both, never in neither.
    await database.query(
      `WITH moved AS (DELETE FROM ${JOB_SCHEMA}.archive WHERE id = $1 RETURNING *) INSERT INTO ${JOB_SCHEMA}.job (${names}) SELECT ${names} FROM moved`,
      [id],
    );
    row = archived;
  }
  if (!RETRYABLE.includes(row.state)) throw new JobNotFound(`job ${id} is ${row.state}, not failed: nothing to retry`);
  await database.query(
    `UPDATE ${JOB_SCHEMA}.job SET state = 'created', retry_count = 0, start_after = now(), started_on = NULL, completed_on = NULL, output = NULL, keep_until = now() + interval '14 days' WHERE id = $1 AND name = $2`,
    [id, row.name],
  );
  const [after] = await database.query<JobRow>(`SELECT ${COLUMNS} FROM ${JOB_SCHEMA}.job WHERE id = $1`, [id]);
  return after;
}

const RETRYABLE = ['failed', 'cancelled'];
