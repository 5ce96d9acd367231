import type { GroupDef } from '../../crud/group.ts';
import { sourceReader, sourceTarget } from '../source/group.ts';
import { tagReader, tagTarget } from '../tag/group.ts';
import { QueryCreate, QueryPagination, QueryRead, QueryUpdate } from './schema.ts';
import { query, queryTag } from './table.ts';

export const queryGroup: GroupDef = {
  path: 'data/queries',
  tags: ['queries'],
  idParam: 'query_id',
  thing: 'A query',
  model: 'Query',
  tableName: 'query',
  table: query,
  shapes: { create: QueryCreate, update: QueryUpdate, read: QueryRead, pagination: QueryPagination },
  fields: { id: 'int', name: 'text', description: 'text', language: 'text', text: 'text', created_at: 'timestamp' },
  refs: { source: { column: 'source_id', target: sourceTarget, read: sourceReader } },
  links: { tags: { table: queryTag, ownerColumn: 'query_id', otherColumn: 'tag_id', target: tagTarget, read: tagReader } },
  unique: { query_project_name_key: 'name' },
};
