import { linkTable } from '../project/scoped.ts';
import { caseTable } from '../lifecycle/table.ts';
import { tag } from '../tag/table.ts';

export const caseTag = linkTable('case_tag', ['case_id', caseTable], ['tag_id', tag]);
export const caseRelated = linkTable('case_related', ['case_id', caseTable], ['related_id', caseTable]);
export const caseDuplicate = linkTable('case_duplicate', ['case_id', caseTable], ['duplicate_id', caseTable]);
