// The assessment of an incident or a case: its type, priority and severity, named in a body by id or
// name (else the project's default), read nested, and filtered on in lists. Each kind names its three
// record groups once (incident/assessment.ts, case/assessment.ts); the rest is written here.
import { eq } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { GroupDef } from '../../crud/group.ts';
import type { RefTarget, RefValue } from '../../crud/refs.ts';
import { refOrDefault } from '../../crud/service.ts';
import type { Executor } from '../../db/connection.ts';
import type { FieldType, Relation } from '../../list/definition.ts';
import type { Ctx } from '../../server/context.ts';
import type { RecordRows } from './kind.ts';

export type AssessmentPart = 'type' | 'priority' | 'severity';

export interface AssessmentGroup {
  target: RefTarget;
  group: GroupDef;
  table: PgTable & { id: PgColumn };
  /** The record's column that points at it. */
  column: PgColumn;
  /** Dispatch's model name, for list filters ("IncidentPriority"). */
  model: string;
  /** The fields a list filter may name. */
  fields: Record<string, FieldType>;
}

export type AssessmentSpec = Record<AssessmentPart, AssessmentGroup>;

export interface Assessment {
  typeId: number;
  priorityId: number;
  severityId: number;
}

const PARTS: AssessmentPart[] = ['type', 'priority', 'severity'];

/** The body field (and column stem) of a part: `incident_priority`, `case_type`. */
export const assessmentField = (kind: RecordRows, part: AssessmentPart) => `${kind.name}_${part}`;

/** The three records a body names (`named`), each by id or name, else the project's default (422 when it has none). */
export async function resolveAssessment(
  tx: Executor,
  ctx: Ctx,
  kind: RecordRows,
  spec: AssessmentSpec,
  projectId: number,
  named: Partial<Record<AssessmentPart, RefValue>>,
): Promise<Assessment> {
  const one = (part: AssessmentPart) => {
    const field = assessmentField(kind, part);
    return refOrDefault(tx, ctx, spec[part].target, spec[part].group, named[part], field, projectId, `${kind.name} ${part}`);
  };
  return { typeId: await one('type'), priorityId: await one('priority'), severityId: await one('severity') };
}

/** The list relations through which `filter` reaches the three records (one each). */
export function assessmentRelations(kind: RecordRows, spec: AssessmentSpec): Relation[] {
  return PARTS.map((part) => {
    const { table, column, model, fields } = spec[part];
    return { kind: 'one', model, tableName: assessmentField(kind, part), table, on: eq(table.id, column), fields };
  });
}
