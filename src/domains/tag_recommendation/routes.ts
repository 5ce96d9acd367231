// GET /{organization}/tags/recommendations/{model_name}/{id}: tags often found with the record's
// own, for a record the caller may see (BEHAVIOR §10.1).
import { Type } from '@sinclair/typebox';
import type { App } from '../../server/routing.ts';
import { OrganizationSlug } from '../../server/shapes.ts';
import { TagRead } from '../tag/schema.ts';
import { recommendTags } from './service.ts';

const TagRecommendations = Type.Object({ items: Type.Array(TagRead), total: Type.Integer() }, { title: 'TagPagination' });

export default async function tagRecommendationRoutes(app: App) {
  app.get(
    '/:organization/tags/recommendations/:model_name/:id',
    {
      schema: {
        tags: ['tags'],
        params: Type.Object({ organization: OrganizationSlug, model_name: Type.String(), id: Type.Integer() }),
        response: { 200: TagRecommendations },
      },
    },
    (req) => recommendTags(req.ctx, req.params.model_name, req.params.id),
  );
}
