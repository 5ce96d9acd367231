import type { GroupDef } from '../../crud/group.ts';
import { groupReader } from '../../crud/reader.ts';
import { definitionGroup, definitionTarget } from '../definition/group.ts';
import { definitionTerm } from '../definition/table.ts';
import { TermCreate, TermPagination, TermRead, TermUpdate } from './schema.ts';
import { term } from './table.ts';

export const termGroup: GroupDef = {
  path: 'terms',
  tags: ['terms'],
  idParam: 'term_id',
  thing: 'A term',
  model: 'Term',
  tableName: 'term',
  table: term,
  shapes: { create: TermCreate, update: TermUpdate, read: TermRead, pagination: TermPagination },
  fields: { id: 'int', text: 'text', discoverable: 'bool', created_at: 'timestamp' },
  // The definitions' link table, read from the term's side.
  links: {
    definitions: {
      table: definitionTerm,
      ownerColumn: 'term_id',
      otherColumn: 'definition_id',
      target: definitionTarget,
      read: () => groupReader(definitionGroup),
    },
  },
  unique: { term_project_text_key: 'text' },
};
