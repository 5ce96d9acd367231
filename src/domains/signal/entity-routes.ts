// What signal instances say about one entity: the instances that hold it and the cases they opened
// or joined, under the entity's paths (registered beside the entity group's routes).
import { Type } from '@sinclair/typebox';
import type { App } from '../../server/routing.ts';
import { MAX_ID, OrganizationSlug } from '../../server/shapes.ts';
import { CaseRead } from '../case/schema.ts';
import { entityGroup } from '../entity/group.ts';
import { SignalInstanceRead } from './schema.ts';
import { entityCases, entitySignalInstances } from './service.ts';

const params = Type.Object({
  organization: OrganizationSlug,
  entity_id: Type.Integer({ minimum: 0, maximum: MAX_ID }),
  days_back: Type.Integer(),
});

export default async function entitySignalRoutes(app: App) {
  // The cases that instances holding the entity opened or joined in the last `days_back` days
  // (Dispatch's operation is named "count", but answers with the cases).
  app.get(
    '/:organization/entity/:entity_id/cases/:days_back',
    {
      schema: { tags: entityGroup.tags, params, response: { 200: Type.Object({ cases: Type.Array(CaseRead) }, { title: 'EntityCases' }) } },
    },
    (req) => entityCases(req.ctx, req.params.entity_id, req.params.days_back),
  );

  app.get(
    '/:organization/entity/:entity_id/signal_instances/:days_back',
    {
      schema: {
        tags: entityGroup.tags,
        params,
        response: { 200: Type.Object({ instances: Type.Array(SignalInstanceRead) }, { title: 'EntitySignalInstances' }) },
      },
    },
    (req) => entitySignalInstances(req.ctx, req.params.entity_id, req.params.days_back),
  );
}
