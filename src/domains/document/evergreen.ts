// Evergreen records (documents, services, teams, notifications) remind their owner every
// `evergreen_reminder_interval` days to review them. Their shared fields, list fields and rule.
import { Type } from '@sinclair/typebox';
import type { Hooks } from '../../crud/group.ts';
import type { Fields } from '../../list/definition.ts';
import { DateTime, Defaulted, Email, Nullable, Opt } from '../../server/shapes.ts';

/** Body fields. The owner may be null: reads give null for no owner and clients send reads back. */
export const evergreenInput = {
  evergreen: Defaulted(Type.Boolean({ default: false })),
  evergreen_owner: Opt(Email()),
  evergreen_reminder_interval: Defaulted(Type.Integer({ default: 90 })),
  evergreen_last_reminder_at: Opt(DateTime()),
};

export const evergreenRead = {
  evergreen: Type.Boolean({ default: false }),
  evergreen_owner: Nullable(Email()),
  evergreen_reminder_interval: Type.Integer({ default: 90 }),
  evergreen_last_reminder_at: Nullable(DateTime()),
};

export const evergreenFields: Fields = {
  evergreen: 'bool',
  evergreen_owner: 'text',
  evergreen_reminder_interval: 'int',
  evergreen_last_reminder_at: 'timestamp',
};

/**
 * A record created evergreen, or switched to evergreen, starts its reminder clock now (unless the
 * body sets it), so the first reminder comes one interval later rather than at once.
 */
export const startEvergreenClock: NonNullable<Hooks['beforeWrite']> = (_tx, _ctx, values, existing) => {
  const switchedOn = values.evergreen === true && !existing?.evergreen;
  if (switchedOn && values.evergreen_last_reminder_at == null) values.evergreen_last_reminder_at = new Date();
};
