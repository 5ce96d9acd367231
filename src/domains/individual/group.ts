import type { GroupDef, Row } from '../../crud/group.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { atLeast, provenEmail, type Ctx } from '../../server/context.ts';
import { errors } from '../../server/errors.ts';
import { filtersLink } from '../search_filter/group.ts';
import { IndividualContactCreate, IndividualContactPagination, IndividualContactRead, IndividualContactUpdate } from './schema.ts';
import { individualContact, individualContactFilter } from './table.ts';

export const individualTarget: RefTarget = {
  table: individualContact,
  model: 'IndividualContact',
  label: 'Individual',
  nameColumn: 'email',
  fields: { id: 'int', email: 'text', name: 'text', title: 'text', company: 'text', is_active: 'bool', is_external: 'bool' },
};

const sameEmail = (a: unknown, b: unknown) => typeof a === 'string' && typeof b === 'string' && a.toLowerCase() === b.toLowerCase();

// Admins and above update any contact (SensitiveProjectAction); a person may update their own.
function requireAdminOrSelf(ctx: Ctx, existing: Row) {
  if (!atLeast(ctx.role, 'Admin') && !sameEmail(provenEmail(ctx.user), existing.email)) throw errors.forbidden();
}

export const individualGroup: GroupDef = {
  path: 'individuals',
  tags: ['individuals'],
  idParam: 'individual_contact_id',
  thing: 'An individual',
  model: 'IndividualContact',
  tableName: 'individual_contact',
  table: individualContact,
  shapes: { create: IndividualContactCreate, update: IndividualContactUpdate, read: IndividualContactRead, pagination: IndividualContactPagination },
  fields: {
    id: 'int',
    email: 'text',
    name: 'text',
    title: 'text',
    company: 'text',
    notes: 'text',
    owner: 'text',
    weblink: 'text',
    contact_type: 'text',
    external_id: 'text',
    mobile_phone: 'text',
    office_phone: 'text',
    is_active: 'bool',
    is_external: 'bool',
    created_at: 'timestamp',
    updated_at: 'timestamp',
  },
  links: { filters: filtersLink(individualContactFilter, 'individual_contact_id') },
  writePermission: { delete: 'SensitiveProjectAction' },
  unique: { individual_contact_project_email_key: 'email' },
  hooks: {
    beforeWrite(_tx, ctx, _values, existing) {
      if (existing) requireAdminOrSelf(ctx, existing);
    },
  },
};
