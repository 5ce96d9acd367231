import { boolean } from 'drizzle-orm/pg-core';
import { rankedTable } from '../../crud/ranked-table.ts';

export const casePriority = rankedTable('case_priority', {
  page_assignee: boolean('page_assignee').notNull().default(false),
});
