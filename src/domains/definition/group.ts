import type { GroupDef } from '../../crud/group.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { termTarget } from '../term/target.ts';
import { DefinitionCreate, DefinitionPagination, DefinitionRead, DefinitionUpdate } from './schema.ts';
import { definition, definitionTerm } from './table.ts';

/** Definitions are named by their text in other bodies. */
export const definitionTarget: RefTarget = {
  table: definition,
  model: 'Definition',
  label: 'Definition',
  nameColumn: 'text',
  fields: { id: 'int', text: 'text', source: 'text' },
};

export const definitionGroup: GroupDef = {
  path: 'definitions',
  tags: ['definitions'],
  idParam: 'definition_id',
  thing: 'A definition',
  model: 'Definition',
  tableName: 'definition',
  table: definition,
  shapes: { create: DefinitionCreate, update: DefinitionUpdate, read: DefinitionRead, pagination: DefinitionPagination },
  fields: { id: 'int', text: 'text', source: 'text', created_at: 'timestamp' },
  links: { terms: { table: definitionTerm, ownerColumn: 'definition_id', otherColumn: 'term_id', target: termTarget, create: true } },
  unique: { definition_project_text_key: 'text' },
};
