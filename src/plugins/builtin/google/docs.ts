// Incident, case and review documents in Google Docs: each a copy of the project's Docs template of
// its kind (Drive files.copy into the configured folder), its `{{placeholders}}` filled by Docs
// documents.batchUpdate (replaceAllText), as Dispatch's Google plugin makes them. A kind without a
// template gets a Doc made from Muster's own Markdown template (Drive converts the upload). A
// Closed record's documents are locked: Drive's read-only content restriction, and editors made
// readers.
import { Type } from '@sinclair/typebox';
import { authoredByMuster } from '../authored.ts';
import { fillTemplate } from '../document.ts';
import { type Configuration, type DocumentPlugin, type KeptDocument, type PluginEnv, RECORD_DOCUMENT_TYPES, type RecordDocumentKind } from '../../types.ts';
import { apiOptions, rootOption, SCOPES } from './auth.ts';
import { checkGoogle } from './check.ts';
import { driveId, googleConfiguration } from './config.ts';
import { text } from '../configuration-text.ts';
import { call, callUnlessGone } from './errors.ts';

const GOOGLE_DOC = 'application/vnd.google-apps.document';
const TITLES: Record<RecordDocumentKind, string> = { incident: 'Incident document', case: 'Case document', review: 'Post-incident review' };
/** Roles that may edit a file, made readers when it is locked (an owner stays owner). */
const EDITING_ROLES = new Set(['writer', 'fileOrganizer']);

const clients = async (config: Configuration, env: PluginEnv) => {
  const options = await apiOptions(config, env, SCOPES.docs);
  const [{ drive: driveApi }, { docs: docsApi }] = await Promise.all([import('@googleapis/drive'), import('@googleapis/docs')]);
  // @googleapis/docs is built on an older googleapis-common: its types name another JWT class, but it
  // only calls the client's `request`, which this one has.
  return { drive: driveApi({ version: 'v3', ...options }), docs: docsApi({ version: 'v1', ...options, auth: options.auth as never }) };
};

/** One replaceAllText per value: `{{name}}` becomes its text wherever it still stands. */
const replacements = (values: Record<string, string>) =>
  Object.entries(values).map(([name, value]) => ({ replaceAllText: { containsText: { text: `{{${name}}}`, matchCase: true }, replaceText: value } }));

const weblinkOf = (file: { id?: string | null; webViewLink?: string | null }) => file.webViewLink ?? `https://docs.google.com/document/d/${file.id}/edit`;

export const googleDocsPlugin: DocumentPlugin = {
  slug: 'google-docs-document',
  title: 'Google Workspace Plugin - Docs',
  type: 'document',
  ...authoredByMuster,
  description: "Makes incident, case and review documents in Google Docs from the project's Docs templates, and locks them when the record closes.",
  check: checkGoogle(SCOPES.docs, ['incident_template_id', 'case_template_id', 'review_template_id', 'folder_id']),
  configuration: googleConfiguration({
    incident_template_id: driveId('Docs template of incident documents (its file id)'),
    case_template_id: driveId('Docs template of case documents (its file id)'),
    review_template_id: driveId('Docs template of post-incident reviews (its file id)'),
    folder_id: driveId('Drive folder (or shared drive) the documents are made in; default the user\u2019s My Drive'),
    read_only_when_closed: Type.Optional(Type.Boolean({ default: true, description: "Whether a record's documents are locked once it is Closed" })),
  }),
  async create({ kind, subject, template, values }, config, env) {
    const { drive, docs } = await clients(config, env);
    const name = `${TITLES[kind]}: ${subject.name ?? `${subject.kind} ${subject.id}`}`;
    const folder = text(config, 'folder_id');
    const requestBody = { name, ...(folder ? { parents: [folder] } : {}) };
    const templateId = text(config, `${kind}_template_id`);
    const file = templateId
      ? await call('Drive files.copy', () => drive.files.copy({ fileId: templateId, supportsAllDrives: true, fields: 'id,webViewLink', requestBody }))
      : await call('Drive files.create', () =>
          drive.files.create(
            {
              supportsAllDrives: true,
              fields: 'id,webViewLink',
              requestBody: { ...requestBody, mimeType: GOOGLE_DOC },
              media: { mimeType: 'text/plain', body: fillTemplate(template, values) },
            },
            rootOption(config),
          ),
        );
    if (!file.id) throw new Error('Drive made the document but answered no id');
    if (templateId && Object.keys(values).length) {
      try {
        await call('Docs documents.batchUpdate', () => docs.documents.batchUpdate({ documentId: file.id!, requestBody: { requests: replacements(values) } }));
      } catch (err) {
        // The retry copies the template again: this copy, unfilled, would stay behind.
        await callUnlessGone('Drive files.delete', () => drive.files.delete({ fileId: file.id!, supportsAllDrives: true })).catch(() => {});
        throw err;
      }
    }
    return { name, resource_id: file.id, resource_type: RECORD_DOCUMENT_TYPES[kind], weblink: weblinkOf(file) };
  },
  async update(document, values, config, env): Promise<KeptDocument> {
    if (Object.keys(values).length === 0) return document;
    const { docs } = await clients(config, env);
    await call('Docs documents.batchUpdate', () =>
      docs.documents.batchUpdate({ documentId: document.resource_id, requestBody: { requests: replacements(values) } }),
    );
    return document;
  },
  async makeReadOnly(document, config, env) {
    if (config.read_only_when_closed === false) return false;
    const { drive } = await clients(config, env);
    const fileId = document.resource_id;
    await call('Drive files.update', () =>
      drive.files.update({
        fileId,
        supportsAllDrives: true,
        requestBody: { contentRestrictions: [{ readOnly: true, reason: 'The record is closed' }] },
      }),
    );
    const { permissions = [] } = await call('Drive permissions.list', () =>
      drive.permissions.list({ fileId, supportsAllDrives: true, fields: 'permissions(id,role,type)' }),
    );
    for (const p of permissions)
      if (p.id && p.role && EDITING_ROLES.has(p.role))
        await call('Drive permissions.update', () =>
          drive.permissions.update({ fileId, permissionId: p.id!, supportsAllDrives: true, requestBody: { role: 'reader' } }),
        );
    return true;
  },
  async delete(document, config, env) {
    const { drive } = await clients(config, env);
    await callUnlessGone('Drive files.delete', () => drive.files.delete({ fileId: document.resource_id, supportsAllDrives: true }));
  },
};
