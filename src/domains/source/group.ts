import type { GroupDef, RefField } from '../../crud/group.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { groupReader } from '../../crud/reader.ts';
import { alertTarget } from '../alert/group.ts';
import { alert } from '../alert/table.ts';
import { query } from '../query/table.ts';
import { serviceGroup, serviceTarget } from '../service/group.ts';
import { tagReader, tagTarget } from '../tag/group.ts';
import { SOURCE_METADATA } from './metadata.ts';
import { SourceCreate, SourcePagination, SourceRead, SourceUpdate } from './schema.ts';
import { source, sourceTag } from './table.ts';

export const sourceTarget: RefTarget = { table: source, model: 'Source', label: 'Source' };

const metadataRefs = Object.fromEntries(
  Object.entries(SOURCE_METADATA).map(([field, m]) => [
    field,
    { column: `${field}_id`, target: m.target, read: () => groupReader(m.group) } satisfies RefField,
  ]),
);

export const sourceGroup: GroupDef = {
  path: 'data/sources',
  tags: ['sources'],
  idParam: 'source_id',
  thing: 'A source',
  model: 'Source',
  tableName: 'source',
  table: source,
  shapes: { create: SourceCreate, update: SourceUpdate, read: SourceRead, pagination: SourcePagination },
  fields: {
    id: 'int',
    name: 'text',
    description: 'text',
    documentation: 'text',
    external_id: 'text',
    source_schema: 'text',
    aggregated: 'bool',
    cost: 'float',
    delay: 'int',
    retention: 'int',
    size: 'int',
    sampling_rate: 'int',
    data_last_loaded_at: 'timestamp',
    created_at: 'timestamp',
  },
  // The owner is an on-call service of the same project, read as the services group reads it.
  refs: { owner: { column: 'owner_id', target: serviceTarget, read: () => groupReader(serviceGroup) }, ...metadataRefs },
  links: { tags: { table: sourceTag, ownerColumn: 'source_id', otherColumn: 'tag_id', target: tagTarget, read: tagReader } },
  children: {
    alerts: { table: alert, column: 'source_id', target: alertTarget },
    queries: { table: query, column: 'source_id' },
  },
  unique: { source_project_name_key: 'name' },
  hooks: {
    // The contract lets `aggregated` be null; it means "not aggregated".
    beforeWrite: (_tx, _ctx, values) => {
      if (values.aggregated === null) values.aggregated = false;
    },
    // Incidents do not reference sources yet.
    afterRead: (_db, items) => {
      for (const item of items) item.incidents = [];
    },
  },
};

/** Sources read in full, for records that name one (queries). */
export const sourceReader = () => groupReader(sourceGroup);
