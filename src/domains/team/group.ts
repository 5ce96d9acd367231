import type { GroupDef } from '../../crud/group.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { evergreenFields, startEvergreenClock } from '../document/evergreen.ts';
import { filtersLink } from '../search_filter/group.ts';
import { TeamContactCreate, TeamContactRead, TeamContactUpdate, TeamPagination } from './schema.ts';
import { teamContact, teamContactFilter } from './table.ts';

export const teamTarget: RefTarget = {
  table: teamContact,
  model: 'TeamContact',
  label: 'Team',
  fields: { id: 'int', name: 'text', email: 'text', is_active: 'bool' },
};

export const teamGroup: GroupDef = {
  path: 'teams',
  tags: ['teams'],
  idParam: 'team_contact_id',
  thing: 'A team',
  model: 'TeamContact',
  tableName: 'team_contact',
  table: teamContact,
  shapes: { create: TeamContactCreate, update: TeamContactUpdate, read: TeamContactRead, pagination: TeamPagination },
  fields: {
    id: 'int',
    email: 'text',
    name: 'text',
    company: 'text',
    notes: 'text',
    owner: 'text',
    contact_type: 'text',
    is_active: 'bool',
    is_external: 'bool',
    ...evergreenFields,
    created_at: 'timestamp',
    updated_at: 'timestamp',
  },
  links: { filters: filtersLink(teamContactFilter, 'team_contact_id') },
  unique: { team_contact_project_email_key: 'email' },
  hooks: { beforeWrite: startEvergreenClock },
};
