import { Type, type TSchema } from '@sinclair/typebox';
import { DateTime, Id, NameStr, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { evergreenInput, evergreenRead } from '../document/evergreen.ts';
import { ProjectRead } from '../project/schema.ts';
import { Filters, SearchFilterRead, SearchFilterUpdate, StringEnum } from '../search_filter/schema.ts';

/** `webhook` is Muster's: a signed POST to a URL (docs/compatibility.md, Notifications). */
export const NOTIFICATION_TYPES = ['conversation', 'email', 'webhook'] as const;

const fields = {
  name: NameStr(),
  description: Opt(Type.String()),
  type: StringEnum(NOTIFICATION_TYPES, 'NotificationTypeEnum'),
  /** A channel for `conversation`, an address for `email`, an http(s) URL for `webhook`. */
  target: Type.String(),
  enabled: Type.Optional(Type.Boolean()),
  ...evergreenInput,
};

/** A webhook's target: an absolute http or https URL with a host. */
export const WEBHOOK_URL = '^https?://[^\\s/?#@]+(?:[/?#]\\S*)?$';

// An email notification's target is an address, a webhook's a URL: checked with the body, reported on `target`.
const targetOf = (type: string, target: Record<string, unknown>) => ({
  if: { properties: { type: { type: 'string', const: type } }, required: ['type'] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable.
  then: { properties: { target: { type: 'string', ...target } } },
});
const targetRules = { allOf: [targetOf('email', { format: 'email' }), targetOf('webhook', { pattern: WEBHOOK_URL, maxLength: 2048 })] };

const body = (title: string, own: Record<string, TSchema>) => Type.Object({ ...fields, ...own }, { title, additionalProperties: false, ...targetRules });

export const NotificationCreate = body('NotificationCreate', { filters: Filters(), project: RefShape(ProjectRead) });
export const NotificationUpdate = body('NotificationUpdate', { filters: Filters({ item: SearchFilterUpdate }) });
export const NotificationRead = Type.Object(
  { id: Id(), ...fields, enabled: Type.Boolean(), ...evergreenRead, filters: Type.Array(SearchFilterRead), created_at: DateTime(), updated_at: DateTime() },
  { title: 'NotificationRead' },
);
export const NotificationPagination = Pagination(NotificationRead, 'NotificationPagination');
