import { Type } from '@sinclair/typebox';
import { DateTime, Defaulted, Email, Id, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { ProjectRead } from '../project/schema.ts';
import { Filters, SearchFilterRead } from '../search_filter/schema.ts';

/** What individuals and teams, both contacts, have in common. */
export const contactFields = {
  email: Email(),
  name: Opt(Type.String()),
  company: Opt(Type.String()),
  contact_type: Opt(Type.String()),
  notes: Opt(Type.String()),
  owner: Opt(Type.String()),
  is_active: Defaulted(Type.Boolean({ default: true })),
  is_external: Defaulted(Type.Boolean({ default: false })),
};

/** A contact's read: its fields with the server's timestamps. */
export const contactRead = {
  id: Id(),
  is_active: Type.Boolean({ default: true }),
  is_external: Type.Boolean({ default: false }),
  filters: Type.Array(SearchFilterRead, { default: [] }),
  created_at: DateTime(),
  updated_at: DateTime(),
};

const fields = {
  ...contactFields,
  title: Opt(Type.String()),
  weblink: Opt(Type.String()),
  external_id: Opt(Type.String()),
  mobile_phone: Opt(Type.String()),
  office_phone: Opt(Type.String()),
  filters: Filters(),
};

export const IndividualContactCreate = Type.Object(
  { ...fields, project: RefShape(ProjectRead) },
  { title: 'IndividualContactCreate', additionalProperties: false },
);
export const IndividualContactUpdate = Type.Object(fields, { title: 'IndividualContactUpdate', additionalProperties: false });
export const IndividualContactRead = Type.Object({ ...fields, ...contactRead }, { title: 'IndividualContactRead' });
export const IndividualContactPagination = Pagination(IndividualContactRead, 'IndividualContactPagination');
