import { registerGroup, withoutDefaults } from '../../crud/routes.ts';
import { updateRecord } from '../../crud/service.ts';
import type { App } from '../../server/routing.ts';
import { ListQuery, OrgParams } from '../../server/shapes.ts';
import { SignalUpdate } from './schema.ts';
import { ingestInstance, type IngestBody } from './flows.ts';
import { signalEngagementGroup } from './engagement.ts';
import { signalFilterGroup, signalGroup } from './group.ts';
import { SignalInstanceCreate, SignalInstancePagination, SignalInstanceRead } from './schema.ts';
import { listInstances } from './service.ts';

const tags = ['signals'];

export default async function signalRoutes(app: App) {
  registerGroup(app, signalFilterGroup);
  // Beyond 0.1.0: a static segment, so `/signals/engagements` is never read as a signal id.
  registerGroup(app, signalEngagementGroup);

  app.get(
    '/:organization/signals/instances',
    { schema: { tags, params: OrgParams(), querystring: ListQuery, response: { 200: SignalInstancePagination } } },
    (req) => listInstances(req.ctx, req.query),
  );

  // The body may carry a raw document up to MUSTER_SIGNAL_RAW_LIMIT, which may exceed the general body limit.
  const { bodyLimit, signalRawLimit } = app.muster.settings;
  app.post(
    '/:organization/signals/instances',
    {
      schema: { tags, params: OrgParams(), body: SignalInstanceCreate, response: { 200: SignalInstanceRead } },
      bodyLimit: Math.max(bodyLimit, signalRawLimit + 64 * 1024),
    },
    (req) => ingestInstance(req.ctx, req.body as IngestBody, req.headers['idempotency-key']),
  );

  registerGroup(app, { ...signalGroup, operations: ['list', 'create', 'get', 'delete'] });
  // Update replaces every list it carries, and an omitted one is emptied (its default), filters and
  // workflows included.
  app.put(
    '/:organization/signals/:signal_id',
    {
      schema: {
        tags,
        params: OrgParams('signal_id'),
        body: withoutDefaults(SignalUpdate, new Set(['tags', 'entity_types', 'filters', 'workflows'])),
        response: { 200: signalGroup.shapes.read },
      },
      config: { permission: 'SensitiveProjectAction' },
    },
    (req) => updateRecord(req.ctx, signalGroup, req.params.signal_id, req.body as Record<string, unknown>),
  );
}
