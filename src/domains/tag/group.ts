import type { GroupDef } from '../../crud/group.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { groupReader } from '../../crud/reader.ts';
import { tagTypeGroup, tagTypeTarget } from '../tag_type/group.ts';
import { TagCreate, TagPagination, TagRead, TagUpdate } from './schema.ts';
import { tag } from './table.ts';

export const tagTarget: RefTarget = { table: tag, model: 'Tag', label: 'Tag', fields: { id: 'int', name: 'text', external_id: 'text', discoverable: 'bool' } };

export const tagGroup: GroupDef = {
  path: 'tags',
  tags: ['tags'],
  idParam: 'tag_id',
  thing: 'A tag',
  model: 'Tag',
  tableName: 'tag',
  table: tag,
  shapes: { create: TagCreate, update: TagUpdate, read: TagRead, pagination: TagPagination },
  fields: {
    id: 'int',
    // Beyond 0.1.0: the web UI's tag pickers filter on their type's id column.
    tag_type_id: 'int',
    name: 'text',
    description: 'text',
    uri: 'text',
    source: 'text',
    external_id: 'text',
    discoverable: 'bool',
    created_at: 'timestamp',
  },
  refs: { tag_type: { column: 'tag_type_id', target: tagTypeTarget, read: () => groupReader(tagTypeGroup) } },
  unique: { tag_type_name_key: 'name' },
};

/** Tags read with their tag type, for records that carry tags. */
export const tagReader = () => groupReader(tagGroup);
