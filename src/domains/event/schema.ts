import { Type } from '@sinclair/typebox';
import { DateTime, Opt } from '../../server/shapes.ts';

export const EVENT_TYPES = ['Other', 'Field updated', 'Assessment updated', 'Participant updated', 'Imported message', 'Custom event'] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** An entry of an incident's timeline. */
export const EventRead = Type.Object(
  {
    uuid: Type.String({ format: 'uuid' }),
    started_at: DateTime(),
    ended_at: DateTime(),
    source: Type.String(),
    description: Type.String(),
    details: Opt(Type.Object({}, { additionalProperties: true })),
    type: Opt(Type.String()),
    owner: Opt(Type.String()),
    pinned: Type.Optional(Type.Boolean()),
  },
  { title: 'EventRead' },
);
