import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, updatedAt } from '../../db/columns.ts';
import { linkTable, projectScoped } from '../project/scoped.ts';
import { caseTable } from '../lifecycle/table.ts';
import { individualContact } from '../individual/table.ts';
import { tag } from '../tag/table.ts';

export const caseTag = linkTable('case_tag', ['case_id', caseTable], ['tag_id', tag]);
export const caseRelated = linkTable('case_related', ['case_id', caseTable], ['related_id', caseTable]);
export const caseDuplicate = linkTable('case_duplicate', ['case_id', caseTable], ['duplicate_id', caseTable]);

/** A case's running notes (Dispatch's `case_notes`): the text and who changed it last. */
export const caseNote = pgTable(
  'case_note',
  {
    id: id(),
    ...projectScoped(),
    case_id: integer('case_id')
      .notNull()
      .references(() => caseTable.id, { onDelete: 'cascade' }),
    content: text('content'),
    last_updated_by_id: integer('last_updated_by_id').references(() => individualContact.id, { onDelete: 'set null' }),
    created_at: createdAt(),
    updated_at: updatedAt(),
  },
  (t) => [index('case_note_case_idx').on(t.case_id)],
);
