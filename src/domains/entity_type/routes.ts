import { Type } from '@sinclair/typebox';
import { registerGroup, withoutDefaults } from '../../crud/routes.ts';
import { updateRecord } from '../../crud/service.ts';
import type { App } from '../../server/routing.ts';
import { MAX_ID, OrganizationSlug } from '../../server/shapes.ts';
import { entityTypeGroup } from './group.ts';
import { EntityTypeUpdate } from './schema.ts';

export default async function entityTypeRoutes(app: App) {
  registerGroup(app, entityTypeGroup);
  // "Process" is an update that then re-runs extraction for this type over recent signal instances;
  // instances do not exist yet, so for now it is the update alone.
  app.put(
    '/:organization/entity_type/:entity_type_id/process',
    {
      schema: {
        tags: entityTypeGroup.tags,
        params: Type.Object({ organization: OrganizationSlug, entity_type_id: Type.Integer({ minimum: 0, maximum: MAX_ID }) }),
        body: withoutDefaults(EntityTypeUpdate),
        response: { 200: entityTypeGroup.shapes.read },
      },
    },
    (req) => updateRecord(req.ctx, entityTypeGroup, req.params.entity_type_id, req.body as Record<string, unknown>),
  );
}
