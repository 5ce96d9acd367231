// The incident as the API reads it, typed from the API's own shapes (types only: nothing of the
// server is bundled by these).
import type { Static } from '@sinclair/typebox';
import type { IncidentRead } from '../../../../src/app/ui-shapes.ts';

export type Incident = Static<typeof IncidentRead>;
export type TimelineEvent = Incident['events'][number];
export type Participant = Incident['participants'][number];
export type IncidentTask = Incident['tasks'][number];

export const STATUSES = ['Active', 'Stable', 'Closed'] as const;
export type Status = (typeof STATUSES)[number];
