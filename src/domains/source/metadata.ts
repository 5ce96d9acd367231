// The five lookup records describing a data source (data formats, environments, statuses,
// transports, types) share one shape; one factory builds each one's shapes, group and target.
import { Type } from '@sinclair/typebox';
import { getTableName } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { GroupDef } from '../../crud/group.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { Id, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { ProjectRead } from '../project/schema.ts';
import { sourceDataFormat, sourceEnvironment, sourceStatus, sourceTransport, sourceType } from './table.ts';

function sourceMetadata(table: PgTable, model: string, path: string, tag: string) {
  const tableName = getTableName(table);
  const label = tableName.charAt(0).toUpperCase() + tableName.slice(1).replace(/_/g, ' ');
  const fields = { name: Type.Optional(Type.String()), description: Opt(Type.String()) };
  const read = Type.Object({ id: Id(), ...fields, project: ProjectRead }, { title: `${model}Read` });
  const shapes = {
    create: Type.Object({ ...fields, project: RefShape(ProjectRead) }, { title: `${model}Create`, additionalProperties: false }),
    // The contract requires `id` in the body; the path's id is the one updated.
    update: Type.Object({ id: Id(), ...fields }, { title: `${model}Update`, additionalProperties: false }),
    read,
    pagination: Pagination(read, `${model}Pagination`),
  };
  const target: RefTarget = { table, model, label };
  const group: GroupDef = {
    path: `data/sources/${path}`,
    tags: [tag],
    idParam: `${tableName}_id`,
    thing: `A ${label.toLowerCase()}`,
    model,
    tableName,
    table,
    shapes,
    fields: { id: 'int', name: 'text', description: 'text', created_at: 'timestamp' },
    unique: { [`${tableName}_project_name_key`]: 'name' },
  };
  return { read, target, group };
}

export const dataFormat = sourceMetadata(sourceDataFormat, 'SourceDataFormat', 'dataFormats', 'source_data_formats');
export const environment = sourceMetadata(sourceEnvironment, 'SourceEnvironment', 'environments', 'source_environments');
export const status = sourceMetadata(sourceStatus, 'SourceStatus', 'statuses', 'source_statuses');
export const transport = sourceMetadata(sourceTransport, 'SourceTransport', 'transports', 'source_transports');
export const type = sourceMetadata(sourceType, 'SourceType', 'types', 'source_types');

/** Each kind by the body field a source names it with. */
export const SOURCE_METADATA = {
  source_data_format: dataFormat,
  source_environment: environment,
  source_status: status,
  source_transport: transport,
  source_type: type,
};
