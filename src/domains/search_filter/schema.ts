import { Type, type TSchema } from '@sinclair/typebox';
import { Defaulted, Email, Id, NameStr, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { UserRead } from '../auth/schema.ts';
import { ProjectRead } from '../project/schema.ts';

/** A string among fixed values, validated (and reported) as the contract's enumerations are. */
export const StringEnum = <const T extends string>(values: readonly T[], title: string) => Type.Unsafe<T>({ type: 'string', enum: [...values], title });

export const SUBJECTS = ['case', 'incident'] as const;
const Subject = StringEnum(SUBJECTS, 'SearchFilterSubject');

/** A saved filter spec (the `filter` grammar): a list of conditions, checked when saved. */
const Expression = Type.Array(Type.Object({}, { additionalProperties: true }));

const fields = {
  name: NameStr(),
  description: Opt(Type.String()),
  expression: Expression,
  subject: Defaulted(Type.Unsafe<(typeof SUBJECTS)[number]>({ ...Subject, default: 'incident' })),
};

export const SearchFilterCreate = Type.Object({ ...fields, project: RefShape(ProjectRead) }, { title: 'SearchFilterCreate', additionalProperties: false });
export const SearchFilterUpdate = Type.Object({ id: Type.Optional(Id()), ...fields }, { title: 'SearchFilterUpdate', additionalProperties: false });
export const SearchFilterRead = Type.Object(
  { id: Id(), ...fields, subject: Type.Unsafe<string>({ ...Subject, default: 'incident' }), creator: Opt(UserRead) },
  { title: 'SearchFilterRead' },
);

/** A record routed by a filter, as the filter's own read shows it. */
const Routed = (title: string, extra = {}) => Type.Object({ id: Id(), name: Opt(Type.String()), ...extra }, { title });

/**
 * A search filter's own read (list, create, update): beyond 0.1.0, for the web UI, with the records
 * whose `filters` name it, as current Dispatch reads them. Filters nested in those records stay as
 * SearchFilterRead.
 */
export const SearchFilterReadRouted = Type.Object(
  {
    ...SearchFilterRead.properties,
    individuals: Type.Array(Routed('IndividualContactRead', { email: Email() }), { default: [] }),
    teams: Type.Array(Routed('TeamRead'), { default: [] }),
    services: Type.Array(Routed('ServiceRead'), { default: [] }),
    notifications: Type.Array(Routed('NotificationRead'), { default: [] }),
  },
  { title: 'SearchFilterRead' },
);
export const SearchFilterPagination = Pagination(SearchFilterReadRouted, 'SearchFilterPagination');

/** A search filter named in another record's body: its read object, whole or in part. */
const SearchFilterItem = Type.Object({ id: Id(), ...fields, creator: Type.Optional(RefShape(UserRead)) }, { title: 'SearchFilterRead' });

/**
 * The `filters` of documents, contacts, services and notifications: search filters named by id
 * (or name); `empty`: omitted means none, as the contract's default `[]` says.
 */
export const Filters = ({ item = SearchFilterItem as TSchema, empty = false } = {}) => {
  const list = Type.Array(RefShape(item), empty ? { default: [] } : {});
  return empty ? Defaulted(list) : Type.Optional(list);
};
