import { boolean } from 'drizzle-orm/pg-core';
import { rankedTable } from '../incident_priority/ranked-table.ts';

export const casePriority = rankedTable('case_priority', {
  page_assignee: boolean('page_assignee').notNull().default(false),
});
