import { Type } from '@sinclair/typebox';
import { DateTime, Opt } from '../../server/shapes.ts';
import { StringEnum } from '../search_filter/schema.ts';

export const REPORT_TYPES = ['Tactical Report', 'Executive Report'] as const;
export type ReportType = (typeof REPORT_TYPES)[number];

export const ReportRead = Type.Object(
  {
    id: Type.Integer(),
    created_at: DateTime(),
    type: StringEnum(REPORT_TYPES, 'ReportTypes'),
    details: Opt(Type.Object({}, { additionalProperties: true })),
  },
  { title: 'ReportRead' },
);

export const ExecutiveReportCreate = Type.Object(
  { current_status: Type.String(), overview: Type.String(), next_steps: Type.String() },
  { title: 'ExecutiveReportCreate', additionalProperties: false },
);
export const TacticalReportCreate = Type.Object(
  { conditions: Type.String(), actions: Type.String(), needs: Type.String() },
  { title: 'TacticalReportCreate', additionalProperties: false },
);
