// Cost models on the CRUD mechanism, with what is their own: the activities a body lists replace
// the model's (matched by plugin event, so an activity kept keeps its id, as in Dispatch), each plugin
// event at most once. Plugin events are the installation's catalogue, shared by every organization.
import { and, eq, inArray, notInArray, or, sql } from 'drizzle-orm';
import { nullMeansDefault, type GroupDef, type Row } from '../../crud/group.ts';
import { groupReader, type ReadDef } from '../../crud/reader.ts';
import type { RefTarget } from '../../crud/refs.ts';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { invalid } from '../../server/errors.ts';
import { pluginEventReader } from '../plugin/service.ts';
import { pluginEvent } from '../plugin/table.ts';
import { CostModelCreate, CostModelPagination, CostModelRead, CostModelUpdate } from './schema.ts';
import { costModel, costModelActivity } from './table.ts';

export const costModelTarget: RefTarget = {
  table: costModel,
  model: 'CostModel',
  label: 'Cost model',
  fields: { id: 'int', name: 'text', enabled: 'bool' },
};

const DEFAULT_RESPONSE_TIME = 300;

interface ActivityInput {
  plugin_event: { id?: number; slug?: string };
  response_time_seconds?: number | null;
  enabled?: boolean | null;
}

/** The catalogue ids of the plugin events the activities name (by id, else slug); 422 on an unknown or repeated one. */
async function pluginEventsOf(tx: Executor, given: ActivityInput[]): Promise<number[]> {
  const ids = given.map((a) => a.plugin_event.id).filter((v): v is number => typeof v === 'number');
  const slugs = given.map((a) => a.plugin_event.slug).filter((v): v is string => typeof v === 'string');
  const rows =
    ids.length || slugs.length
      ? await tx
          .select({ id: pluginEvent.id, slug: pluginEvent.slug })
          .from(pluginEvent)
          .where(or(ids.length ? inArray(pluginEvent.id, ids) : undefined, slugs.length ? inArray(pluginEvent.slug, slugs) : undefined))
      : [];
  const seen = new Set<number>();
  return given.map((a, i) => {
    const ref = a.plugin_event;
    const found = typeof ref.id === 'number' ? rows.find((r) => r.id === ref.id) : rows.find((r) => r.slug === ref.slug);
    if (!found) throw invalid(['activities', i, 'plugin_event'], 'Plugin event not found.', 'value_error.not_found');
    if (seen.has(found.id)) throw invalid(['activities', i, 'plugin_event'], 'A cost model prices each plugin event once.', 'value_error.duplicate');
    seen.add(found.id);
    return found.id;
  });
}

/** Replaces the model's activities with the body's, when it lists them. */
async function writeActivities(tx: Executor, _ctx: Ctx, row: Row, body: Record<string, unknown>) {
  const given = body.activities as ActivityInput[] | undefined;
  if (given === undefined) return;
  const events = await pluginEventsOf(tx, given);
  const mine = eq(costModelActivity.cost_model_id, row.id);
  await tx.delete(costModelActivity).where(events.length ? and(mine, notInArray(costModelActivity.plugin_event_id, events)) : mine);
  if (events.length === 0) return;
  await tx
    .insert(costModelActivity)
    .values(
      given.map((a, i) => ({
        organization_id: row.organization_id as number,
        project_id: row.project_id as number,
        cost_model_id: row.id,
        plugin_event_id: events[i],
        response_time_seconds: a.response_time_seconds ?? DEFAULT_RESPONSE_TIME,
        enabled: a.enabled ?? true,
      })),
    )
    .onConflictDoUpdate({
      target: [costModelActivity.cost_model_id, costModelActivity.plugin_event_id],
      set: { response_time_seconds: sql`excluded.response_time_seconds`, enabled: sql`excluded.enabled` },
    });
}

const activityDef: ReadDef = {
  table: costModelActivity,
  projectScoped: false,
  refs: {
    plugin_event: { column: 'plugin_event_id', target: { table: pluginEvent, model: 'PluginEvent', label: 'Plugin event' }, read: () => pluginEventReader },
  },
};

export const costModelGroup: GroupDef = {
  path: 'cost_models',
  tags: ['cost_models'],
  idParam: 'cost_model_id',
  thing: 'A cost model',
  model: 'CostModel',
  tableName: 'cost_model',
  table: costModel,
  shapes: { create: CostModelCreate, update: CostModelUpdate, read: CostModelRead, pagination: CostModelPagination },
  fields: { id: 'int', name: 'text', description: 'text', enabled: 'bool', created_at: 'timestamp', updated_at: 'timestamp' },
  writePermission: 'SensitiveProjectAction',
  children: { activities: { table: costModelActivity, column: 'cost_model_id', read: () => groupReader(activityDef) } },
  unique: { cost_model_project_name_key: 'name' },
  hooks: {
    beforeWrite: (_tx, _ctx, values, existing) => nullMeansDefault(values, 'enabled', true, existing),
    afterWrite: writeActivities,
  },
};

/** CostModelRead by id, for the incident and case types that name one. */
export const costModelReader = () => groupReader(costModelGroup);
