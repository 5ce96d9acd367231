// Beyond 0.1.0: the text of the documents Muster keeps (records' documents, reviews, templates),
// edited with a version so that two editors never overwrite each other, their revisions, and the
// export of one as Markdown or PDF.
import type { App } from '../../server/routing.ts';
import { OrgParams } from '../../server/shapes.ts';
import { exportDocument } from './export.ts';
import { getContent, listRevisions, saveContent } from './content.ts';
import { DocumentContentRead, DocumentContentUpdate, DocumentExportQuery, DocumentRevisions } from './schema.ts';

const tags = ['documents'];
const params = OrgParams('document_id');

export default async function recordDocumentRoutes(app: App) {
  app.get(
    '/:organization/documents/:document_id/content',
    { schema: { tags, operationId: 'get_document_content', params, response: { 200: DocumentContentRead } } },
    (req) => getContent(req.ctx, req.params.document_id),
  );

  app.put(
    '/:organization/documents/:document_id/content',
    { schema: { tags, operationId: 'update_document_content', params, body: DocumentContentUpdate, response: { 200: DocumentContentRead } } },
    (req) => saveContent(req.ctx, req.params.document_id, req.body),
  );

  app.get(
    '/:organization/documents/:document_id/revisions',
    { schema: { tags, operationId: 'get_document_revisions', params, response: { 200: DocumentRevisions } } },
    (req) => listRevisions(req.ctx, req.params.document_id),
  );

  app.get(
    '/:organization/documents/:document_id/export',
    { schema: { tags, operationId: 'export_document', params, querystring: DocumentExportQuery, produces: ['text/markdown', 'application/pdf'] } },
    async (req, reply) => {
      const out = await exportDocument(req.ctx, req.params.document_id, req.query.format);
      reply.header('content-type', out.contentType);
      reply.header('content-disposition', `attachment; filename="${out.filename}"`);
      return reply.send(out.body);
    },
  );
}
