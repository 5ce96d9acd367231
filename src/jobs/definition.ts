// A kind of background job as a domain declares it: its queue (retries, run time) and what runs it.
// app/jobs.ts gathers every domain's; a handler gets the job and what it needs of the process.
import type { Settings } from '../config.ts';
import type { Executor } from '../db/connection.ts';
import type { JobInfo, QueueSpec } from './queue.ts';

export interface JobLog {
  info(obj: object, msg?: string): void;
  warn(obj: object, msg?: string): void;
  error(obj: object, msg?: string): void;
}

export interface JobEnv {
  db: Executor;
  settings: Settings;
  log: JobLog;
}

export interface JobDefinition<T = Record<string, unknown>> extends QueueSpec {
  run(job: JobInfo<T>, env: JobEnv): Promise<unknown>;
}

/** Declares a job kind with its payload's type. */
export const defineJob = <T>(def: JobDefinition<T>): JobDefinition => def as unknown as JobDefinition;

/** `log` with `bindings` in each of its lines (a job's request id). */
export function withBindings(log: JobLog, bindings: object): JobLog {
  return {
    info: (obj, msg) => log.info({ ...bindings, ...obj }, msg),
    warn: (obj, msg) => log.warn({ ...bindings, ...obj }, msg),
    error: (obj, msg) => log.error({ ...bindings, ...obj }, msg),
  };
}
