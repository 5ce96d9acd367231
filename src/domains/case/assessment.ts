// A case's type, priority and severity, as the lifecycle kit's assessment (lifecycle/assessment.ts).
import { casePriorityGroup, casePriorityTarget } from '../case_priority/group.ts';
import { casePriority } from '../case_priority/table.ts';
import { caseSeverityGroup, caseSeverityTarget } from '../case_severity/group.ts';
import { caseSeverity } from '../case_severity/table.ts';
import { caseTypeGroup, caseTypeTarget } from '../case_type/group.ts';
import { caseType } from '../case_type/table.ts';
import type { AssessmentSpec } from '../lifecycle/assessment.ts';
import { caseTable } from '../lifecycle/table.ts';

export const CASE_ASSESSMENT: AssessmentSpec = {
  type: {
    target: caseTypeTarget,
    group: caseTypeGroup,
    table: caseType,
    column: caseTable.case_type_id,
    model: 'CaseType',
    fields: { id: 'int', name: 'text', visibility: 'text', exclude_from_metrics: 'bool' },
  },
  priority: {
    target: casePriorityTarget,
    group: casePriorityGroup,
    table: casePriority,
    column: caseTable.case_priority_id,
    model: 'CasePriority',
    fields: { id: 'int', name: 'text', view_order: 'int', page_assignee: 'bool' },
  },
  severity: {
    target: caseSeverityTarget,
    group: caseSeverityGroup,
    table: caseSeverity,
    column: caseTable.case_severity_id,
    model: 'CaseSeverity',
    fields: { id: 'int', name: 'text', view_order: 'int' },
  },
};
