import type { GroupDef } from '../../crud/group.ts';
import { groupReader } from '../../crud/reader.ts';
import { entityTypeGroup, entityTypeTarget } from '../entity_type/group.ts';
import { EntityCreate, EntityPagination, EntityRead, EntityUpdate } from './schema.ts';
import { entity } from './table.ts';

export const entityGroup: GroupDef = {
  path: 'entity',
  tags: ['entities'],
  idParam: 'entity_id',
  thing: 'An entity',
  model: 'Entity',
  tableName: 'entity',
  table: entity,
  shapes: { create: EntityCreate, update: EntityUpdate, read: EntityRead, pagination: EntityPagination },
  fields: { id: 'int', name: 'text', description: 'text', value: 'text', source: 'text', created_at: 'timestamp' },
  unique: { entity_type_value_key: 'value' },
  refs: { entity_type: { column: 'entity_type_id', target: entityTypeTarget, read: () => groupReader(entityTypeGroup) } },
};
