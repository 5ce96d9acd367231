import type { GroupDef } from '../../crud/group.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { evergreenFields, startEvergreenClock } from '../document/evergreen.ts';
import { filtersLink } from '../search_filter/group.ts';
import { ServiceCreate, ServicePagination, ServiceRead, ServiceUpdate } from './schema.ts';
import { service, serviceFilter } from './table.ts';

export const serviceTarget: RefTarget = {
  table: service,
  model: 'Service',
  label: 'Service',
  fields: { id: 'int', name: 'text', external_id: 'text', type: 'text', is_active: 'bool' },
};

// Deleting a service detaches it: case types paging it as their on-call service keep none.
export const serviceGroup: GroupDef = {
  path: 'services',
  tags: ['services'],
  idParam: 'service_id',
  thing: 'A service',
  model: 'Service',
  tableName: 'service',
  table: service,
  shapes: { create: ServiceCreate, update: ServiceUpdate, read: ServiceRead, pagination: ServicePagination },
  fields: {
    id: 'int',
    name: 'text',
    description: 'text',
    external_id: 'text',
    type: 'text',
    is_active: 'bool',
    ...evergreenFields,
    created_at: 'timestamp',
    updated_at: 'timestamp',
  },
  links: { filters: filtersLink(serviceFilter, 'service_id') },
  unique: { service_project_external_id_key: 'external_id' },
  hooks: { beforeWrite: startEvergreenClock },
};
