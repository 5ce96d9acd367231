import { Type } from '@sinclair/typebox';
import { rankedShapes } from '../../crud/ranked.ts';

export const casePriorityShapes = rankedShapes('CasePriority', {
  /** Cases of this priority page their assignee when created. */
  page_assignee: Type.Optional(Type.Boolean()),
});
