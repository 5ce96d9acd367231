// The files of incidents and cases over HTTP: upload (multipart/form-data, one file), list,
// download and delete. The multipart parser is registered in the upload routes' own scope, so no
// other route parses bodies any differently. Downloads are streamed as attachments that a browser
// never renders: Content-Disposition attachment, nosniff, and a policy that runs nothing.
import { Readable } from 'node:stream';
import multipart from '@fastify/multipart';
import { Type } from '@sinclair/typebox';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { errors, invalid } from '../../server/errors.ts';
import type { App } from '../../server/routing.ts';
import { Id, NullResponse, OrgParams } from '../../server/shapes.ts';
import { guardRecord } from '../auth/hook.ts';
import { assertCanEditCase } from '../case/visibility.ts';
import { assertCanEdit } from '../incident/visibility.ts';
import { CASE_ROWS, INCIDENT_ROWS, type RecordRows } from '../lifecycle/kind.ts';
import { assertVisible } from '../lifecycle/visibility.ts';
import { FileRead } from './schema.ts';
import { addFile, listFiles, openFile, removeFile } from './service.ts';
import { attachment, cleanName, sniff } from './sniff.ts';

/** A download runs nothing and embeds nothing, even if a browser were to render it. */
const DOWNLOAD_POLICY = "default-src 'none'; sandbox";

interface Kind {
  rows: RecordRows;
  path: 'incidents' | 'cases';
  param: 'incident_id' | 'case_id';
  canEdit: (ctx: Ctx, id: number, db: Executor) => Promise<unknown>;
}

const KINDS: Kind[] = [
  { rows: INCIDENT_ROWS, path: 'incidents', param: 'incident_id', canEdit: assertCanEdit },
  { rows: CASE_ROWS, path: 'cases', param: 'case_id', canEdit: assertCanEditCase },
];

export default async function fileRoutes(app: App) {
  const max = app.muster.settings.uploadMaxBytes;
  for (const kind of KINDS) {
    const tags = [kind.path];
    const files = `/:organization/${kind.path}/:${kind.param}/files`;
    const recordParams = OrgParams(kind.param);
    const fileParams = Type.Object({ ...recordParams.properties, file_id: Id() });
    const recordId = (params: unknown) => (params as Record<string, number>)[kind.param];
    // The caller must see the record before its body is read.
    const visible = guardRecord(kind.param, (ctx, id) => assertVisible(ctx, kind.rows, id, ctx.db));

    app.get(files, { schema: { tags, params: recordParams, response: { 200: Type.Array(FileRead) } }, preValidation: visible }, (req) =>
      listFiles(req.ctx, kind.rows, recordId(req.params)),
    );

    app.get(`${files}/:file_id`, { schema: { tags, params: fileParams }, preValidation: visible }, async (req, reply) => {
      const { file, chunks } = await openFile(req.ctx, kind.rows, recordId(req.params), req.params.file_id);
      reply.headers({
        'content-type': file.content_type,
        'content-length': String(file.size),
        'content-disposition': attachment(file.name),
        'x-content-type-options': 'nosniff',
        'content-security-policy': DOWNLOAD_POLICY,
        'cache-control': 'private, no-store',
      });
      return reply.send(Readable.from(chunks));
    });

    app.delete(`${files}/:file_id`, { schema: { tags, params: fileParams, response: { 200: NullResponse } }, preValidation: visible }, (req) =>
      removeFile(req.ctx, kind.rows, recordId(req.params), req.params.file_id, (tx) => kind.canEdit(req.ctx, recordId(req.params), tx)),
    );

    await app.register(async (scope: App) => {
      await scope.register(multipart, { limits: { fileSize: max, files: 1, fields: 0, parts: 1 } });
      scope.post(files, { schema: { tags, params: recordParams, response: { 200: FileRead } }, preValidation: visible }, async (req) => {
        if (!req.isMultipart()) throw errors.unsupportedMediaType(req.headers['content-type'] ?? 'none', 'multipart/form-data with one file');
        const part = await req.file().catch(tooLarge(max));
        if (!part) throw invalid(['body', 'file'], 'field required', 'value_error.missing');
        const content = await part.toBuffer().catch(tooLarge(max));
        const found = sniff(content);
        if ('refused' in found) throw errors.fileTypeRefused(found.refused);
        return addFile(req.ctx, kind.rows, recordId(req.params), {
          name: cleanName(part.filename),
          content_type: found.type,
          content,
          creator: req.ctx.user.email,
        });
      });
    });
  }
}

/** The parser's limits (a file over the size, more than one part) as the catalogue's 413. */
const tooLarge =
  (max: number) =>
  (err: { statusCode?: number }): never => {
    if (err.statusCode === 413) throw errors.tooLarge(`The file is larger than ${max} bytes, or more than one part was sent.`);
    throw err;
  };
