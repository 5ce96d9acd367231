import { Type } from '@sinclair/typebox';
import { registerGroup, withoutDefaults } from '../../crud/routes.ts';
import { updateRecord } from '../../crud/service.ts';
import type { App } from '../../server/routing.ts';
import { MAX_ID, OrganizationSlug } from '../../server/shapes.ts';
import type { GroupDef } from '../../crud/group.ts';
import { reprocessEntityType } from './process.ts';
import { entityTypeGroup } from './group.ts';
import { EntityTypeUpdate } from './schema.ts';

const processGroup: GroupDef = {
  ...entityTypeGroup,
  hooks: { ...entityTypeGroup.hooks, afterWrite: (tx, ctx, row) => reprocessEntityType(tx, ctx.organization.id, row.id) },
};

export default async function entityTypeRoutes(app: App) {
  registerGroup(app, entityTypeGroup);
  // "Process" is an update that then re-runs extraction for this type over recent signal instances,
  // in the same transaction.
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
    (req) => updateRecord(req.ctx, processGroup, req.params.entity_type_id, req.body as Record<string, unknown>),
  );
}
