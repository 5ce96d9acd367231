import { Type, type TSchema } from '@sinclair/typebox';
import { DateTime, Id, NameStr, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { evergreenInput, evergreenRead } from '../document/evergreen.ts';
import { ProjectRead } from '../project/schema.ts';
import { Filters, SearchFilterRead, SearchFilterUpdate, StringEnum } from '../search_filter/schema.ts';

export const NOTIFICATION_TYPES = ['conversation', 'email'] as const;

const fields = {
  name: NameStr(),
  description: Opt(Type.String()),
  type: StringEnum(NOTIFICATION_TYPES, 'NotificationTypeEnum'),
  /** A channel for `conversation`, an address for `email`. */
  target: Type.String(),
  enabled: Type.Optional(Type.Boolean()),
  ...evergreenInput,
};

// An email notification's target is an address: checked with the body, reported on `target`.
const emailTarget = {
  if: { properties: { type: { type: 'string', const: 'email' } }, required: ['type'] },
  // biome-ignore lint/suspicious/noThenProperty: JSON Schema's if/then keyword, not a thenable.
  then: { properties: { target: { type: 'string', format: 'email' } } },
};

const body = (title: string, own: Record<string, TSchema>) => Type.Object({ ...fields, ...own }, { title, additionalProperties: false, ...emailTarget });

export const NotificationCreate = body('NotificationCreate', { filters: Filters(), project: RefShape(ProjectRead) });
export const NotificationUpdate = body('NotificationUpdate', { filters: Filters({ item: SearchFilterUpdate }) });
export const NotificationRead = Type.Object(
  { id: Id(), ...fields, enabled: Type.Boolean(), ...evergreenRead, filters: Type.Array(SearchFilterRead), created_at: DateTime(), updated_at: DateTime() },
  { title: 'NotificationRead' },
);
export const NotificationPagination = Pagination(NotificationRead, 'NotificationPagination');
