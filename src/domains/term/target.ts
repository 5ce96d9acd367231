import type { RefTarget } from '../../crud/refs.ts';
import { term } from './table.ts';

/** Terms are named by their text in other bodies: `{"text": "SLA"}`. */
export const termTarget: RefTarget = {
  table: term,
  model: 'Term',
  label: 'Term',
  nameColumn: 'text',
  fields: { id: 'int', text: 'text', discoverable: 'bool' },
};
