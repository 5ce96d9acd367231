import { index, integer, pgTable, text } from 'drizzle-orm/pg-core';
import { createdAt, id, searchVector, updatedAt } from '../../db/columns.ts';
import { projectScoped } from '../project/scoped.ts';
import { caseTable, incident } from '../lifecycle/table.ts';
import { participant } from '../lifecycle/table.ts';

export const feedback = pgTable(
  'feedback',
  {
    id: id(),
    ...projectScoped(),
    incident_id: integer('incident_id').references(() => incident.id, { onDelete: 'cascade' }),
    /** Feedback on a case (Dispatch asks a case's participants too); null on an incident's. */
    case_id: integer('case_id').references(() => caseTable.id, { onDelete: 'cascade' }),
    participant_id: integer('participant_id').references(() => participant.id, { onDelete: 'set null' }),
    rating: text('rating').notNull().default('Very satisfied'),
    feedback: text('feedback'),
    created_at: createdAt(),
    updated_at: updatedAt(),
    search_vector: searchVector('feedback', 'rating'),
  },
  (t) => [index('feedback_incident_idx').on(t.incident_id), index('feedback_search_idx').using('gin', t.search_vector)],
);
