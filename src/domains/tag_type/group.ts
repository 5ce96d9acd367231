import type { GroupDef } from '../../crud/group.ts';
import type { RefTarget } from '../../crud/refs.ts';
import type { Fields } from '../../list/definition.ts';
import { DISCOVERABLE, TagTypeCreate, TagTypePagination, TagTypeRead, TagTypeUpdate } from './schema.ts';
import { tagType } from './table.ts';

const discoverableFields: Fields = Object.fromEntries(DISCOVERABLE.map((kind) => [`discoverable_${kind}`, 'bool']));

export const tagTypeTarget: RefTarget = {
  table: tagType,
  model: 'TagType',
  label: 'Tag type',
  fields: { id: 'int', name: 'text', exclusive: 'bool', ...discoverableFields },
};

export const tagTypeGroup: GroupDef = {
  path: 'tag_types',
  tags: ['tag_types'],
  idParam: 'tag_type_id',
  thing: 'A tag type',
  model: 'TagType',
  tableName: 'tag_type',
  table: tagType,
  shapes: { create: TagTypeCreate, update: TagTypeUpdate, read: TagTypeRead, pagination: TagTypePagination },
  fields: { id: 'int', name: 'text', description: 'text', exclusive: 'bool', ...discoverableFields, created_at: 'timestamp' },
  unique: { tag_type_project_name_key: 'name' },
};
