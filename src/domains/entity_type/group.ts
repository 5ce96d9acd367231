import type { GroupDef } from '../../crud/group.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { invalid } from '../../server/errors.ts';
import { jsonPathProblem, regularExpressionProblem } from './extract.ts';
import { EntityTypeCreate, EntityTypePagination, EntityTypeRead, EntityTypeUpdate } from './schema.ts';
import { entityType } from './table.ts';

export const entityTypeTarget: RefTarget = {
  table: entityType,
  model: 'EntityType',
  label: 'Entity type',
  fields: { id: 'int', name: 'text', jpath: 'text', regular_expression: 'text', global_find: 'bool', enabled: 'bool', scope: 'text' },
};

/** An entity type is saved only with a regular expression and a JSONPath that extraction can run. */
function checkExtractors(values: Record<string, unknown>) {
  const regex = values.regular_expression;
  const regexProblem = typeof regex === 'string' && regex !== '' ? regularExpressionProblem(regex) : undefined;
  if (regexProblem) throw invalid(['regular_expression'], `Invalid regular expression: ${regexProblem}`);
  const jpath = values.jpath;
  const jpathProblem = typeof jpath === 'string' && jpath !== '' ? jsonPathProblem(jpath) : undefined;
  if (jpathProblem) throw invalid(['jpath'], `Invalid JSONPath expression: ${jpathProblem}`);
}

export const entityTypeGroup: GroupDef = {
  path: 'entity_type',
  tags: ['entity_types'],
  idParam: 'entity_type_id',
  thing: 'An entity type',
  model: 'EntityType',
  tableName: 'entity_type',
  table: entityType,
  shapes: { create: EntityTypeCreate, update: EntityTypeUpdate, read: EntityTypeRead, pagination: EntityTypePagination },
  fields: {
    id: 'int',
    name: 'text',
    description: 'text',
    jpath: 'text',
    regular_expression: 'text',
    global_find: 'bool',
    enabled: 'bool',
    scope: 'text',
    created_at: 'timestamp',
  },
  unique: { entity_type_project_name_key: 'name' },
  hooks: { beforeWrite: (_tx, _ctx, values) => checkExtractors(values) },
};
