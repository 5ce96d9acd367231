import { boolean, integer } from 'drizzle-orm/pg-core';
import { rankedTable } from '../../crud/ranked-table.ts';

export const incidentPriority = rankedTable('incident_priority', {
  page_commander: boolean('page_commander').notNull().default(false),
  tactical_report_reminder: integer('tactical_report_reminder').notNull().default(24),
  executive_report_reminder: integer('executive_report_reminder').notNull().default(24),
});
