// The claims of the scheduler: one row per task and period (slot). The node whose insert wins runs
// the task for that period; the others skip it. A row stays after the run with its outcome, so a
// node killed mid-task leaves its period claimed (the task runs next period, never twice for one).
import { pgTable, primaryKey, text, timestamp } from 'drizzle-orm/pg-core';

export const scheduledRun = pgTable(
  'scheduled_run',
  {
    task: text('task').notNull(),
    /** The period's start; an eager run (`--eager`) claims the moment it was asked for. */
    slot: timestamp('slot', { withTimezone: true, mode: 'date' }).notNull(),
    node: text('node').notNull(),
    started_at: timestamp('started_at', { withTimezone: true, mode: 'date' }).notNull().defaultNow(),
    finished_at: timestamp('finished_at', { withTimezone: true, mode: 'date' }),
    /** ok, failed, interrupted (stopped before it finished); null while running. */
    outcome: text('outcome'),
    error: text('error'),
  },
  (t) => [primaryKey({ columns: [t.task, t.slot] })],
);
