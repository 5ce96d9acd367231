import type { App } from '../../server/routing.ts';
import { OrgParams } from '../../server/shapes.ts';
import { AuditEntryPagination, AuditExportQuery, AuditListQuery } from './schema.ts';
import { exportAuditLog, listAuditLog } from './service.ts';

const tags = ['audit log'];
// Beyond 0.1.0: the organization's audit log, for its Owners. Nothing changes or deletes an entry
// through the API.
const config = { permission: 'OrganizationOwner' } as const;

export default async function auditRoutes(app: App) {
  app.get(
    '/:organization/audit-log',
    { schema: { tags, operationId: 'get_audit_log', params: OrgParams(), querystring: AuditListQuery, response: { 200: AuditEntryPagination } }, config },
    (req) => listAuditLog(req.ctx, req.query),
  );

  app.get(
    '/:organization/audit-log/export',
    {
      schema: {
        tags,
        operationId: 'export_audit_log',
        params: OrgParams(),
        querystring: AuditExportQuery,
        produces: ['application/x-ndjson', 'text/csv'],
      },
      config,
      // A HEAD would record an export that nobody received.
      exposeHeadRoute: false,
    },
    async (req, reply) => {
      const out = await exportAuditLog(req.ctx, req.query);
      reply.header('content-type', out.contentType);
      reply.header('content-disposition', `attachment; filename="${out.filename}"`);
      reply.header('cache-control', 'no-store');
      return reply.send(out.body);
    },
  );
}
