// GET /{organization}/search: the web UI's search box, over the records of the caller's
// organization they may see (BEHAVIOR §10.3).
import type { App } from '../../server/routing.ts';
import { OrgParams } from '../../server/shapes.ts';
import { SearchQuery, SearchResponse } from './schema.ts';
import { search } from './service.ts';

export default async function searchRoutes(app: App) {
  app.get('/:organization/search', { schema: { tags: ['search'], params: OrgParams(), querystring: SearchQuery, response: { 200: SearchResponse } } }, (req) =>
    search(req.ctx, req.query),
  );
}
