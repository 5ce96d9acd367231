import { Type } from '@sinclair/typebox';
import { rankedShapes } from '../../crud/ranked.ts';

export const incidentPriorityShapes = rankedShapes('IncidentPriority', {
  page_commander: Type.Optional(Type.Boolean()),
  /** Hours between reminders to write a tactical report while the incident is active; never negative (0: none). */
  tactical_report_reminder: Type.Optional(Type.Integer({ minimum: 0 })),
  executive_report_reminder: Type.Optional(Type.Integer({ minimum: 0 })),
});
