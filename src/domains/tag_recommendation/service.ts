import { and, asc, eq } from 'drizzle-orm';
import type { Ctx } from '../../server/context.ts';
import { errors } from '../../server/errors.ts';
import { caseTag } from '../case/table.ts';
import { incidentTag } from '../incident/table.ts';
import { visibleRecords } from '../lifecycle/visibility.ts';
import type { incident } from '../lifecycle/table.ts';
import { groupReader } from '../../crud/reader.ts';
import { tagGroup } from '../tag/group.ts';
import { TagRead } from '../tag/schema.ts';
import { CASE_ROWS, INCIDENT_ROWS, type RecordRows } from '../lifecycle/kind.ts';
import { MODEL_NAMES, type ModelName, recommend, tagModelOf } from './model.ts';

const KINDS: Record<ModelName, { kind: RecordRows; link: typeof incidentTag | typeof caseTag }> = {
  incident: { kind: INCIDENT_ROWS, link: incidentTag },
  case: { kind: CASE_ROWS, link: caseTag },
};

/** Up to five tags recommended for the record; 404 for an unknown model, or a record the caller cannot see. */
export async function recommendTags(ctx: Ctx, modelName: string, id: number) {
  const missing = () => errors.notFoundWith(`No model found. ModelName: ${modelName} Id: ${id}`);
  if (!(MODEL_NAMES as readonly string[]).includes(modelName)) throw missing();
  const { kind, link } = KINDS[modelName as ModelName];
  const table = kind.table as typeof incident;
  const [row] = await ctx.db
    .select({ project_id: table.project_id })
    .from(table)
    .where(and(eq(table.id, id), visibleRecords(ctx, kind)));
  if (!row) throw missing();
  const owner = 'incident_id' in link ? link.incident_id : link.case_id;
  const own = await ctx.db.select({ tag: link.tag_id }).from(link).where(eq(owner, id)).orderBy(asc(link.tag_id));
  const model = await tagModelOf(ctx.db, ctx.organization.id, row.project_id, modelName as ModelName);
  const ids = recommend(
    model,
    own.map((t) => t.tag).filter((t): t is number => t !== null),
  );
  const tags = await groupReader(tagGroup, TagRead)(ctx.db, ids, ctx);
  const items = ids.map((t) => tags.get(t)).filter((t) => t !== undefined);
  return { items, total: items.length };
}
