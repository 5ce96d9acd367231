import type { App } from '../../server/routing.ts';
import { IdParams, ListQuery } from '../../server/shapes.ts';
import { OrganizationCreate, OrganizationPagination, OrganizationRead, OrganizationUpdate } from './schema.ts';
import { createOrganization, listOrganizations, updateOrganization } from './service.ts';

const tags = ['organizations'];
const params = IdParams('organization_id');

export default async function organizationRoutes(app: App) {
  app.get('/organizations', { schema: { tags, operationId: 'get_organizations', querystring: ListQuery, response: { 200: OrganizationPagination } } }, (req) =>
    listOrganizations(app.muster.db, req.caller, req.query, req.log),
  );

  app.post('/organizations', { schema: { tags, operationId: 'create_organization', body: OrganizationCreate, response: { 200: OrganizationRead } } }, (req) =>
    createOrganization(app.muster.db, req.caller, req.body, undefined, { address: req.ip }),
  );

  app.get(
    '/organizations/:organization_id',
    { schema: { tags, operationId: 'get_organization', params, response: { 200: OrganizationRead } } },
    async (req) => req.ctx.organization,
  );

  app.put(
    '/organizations/:organization_id',
    {
      schema: { tags, operationId: 'update_organization', params, body: OrganizationUpdate, response: { 200: OrganizationRead } },
      config: { permission: 'OrganizationOwner' },
    },
    (req) => updateOrganization(req.ctx, req.body),
  );
}
