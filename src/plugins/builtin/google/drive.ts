// A record's folder in Google Drive: made (files.create, the folder type) in the configured shared
// drive or parent folder when the record's first file is added, and shared with the record's people
// as they join (permissions.create per e-mail, no notification mail: the record's page links it);
// someone who leaves loses the access Muster gave them (permissions.delete of that permission).
// The files Muster is given stay on Muster's own shelf as well, so lists and downloads never wait on Drive.
import { Type } from '@sinclair/typebox';
import { authoredByMuster } from '../authored.ts';
import { VendorError } from '../../../lib/outbound/vendor.ts';
import type { Configuration, PluginEnv, StorageFolder, StoragePlugin } from '../../types.ts';
import { apiOptions, SCOPES } from './auth.ts';
import { checkGoogle } from './check.ts';
import { driveId, googleConfiguration } from './config.ts';
import { text } from '../configuration-text.ts';
import { call, callUnlessGone, translate } from './errors.ts';

const FOLDER = 'application/vnd.google-apps.folder';
const ROLES = ['reader', 'commenter', 'writer'] as const;

const driveOf = async (config: Configuration, env: PluginEnv) =>
  (await import('@googleapis/drive')).drive({ version: 'v3', ...(await apiOptions(config, env, SCOPES.drive)) });

/** The (lower-cased) e-mails of the users with a permission on the folder, direct or inherited from its shared drive, a page at a time. */
async function accessOf(drive: Awaited<ReturnType<typeof driveOf>>, fileId: string): Promise<Set<string>> {
  const found = new Set<string>();
  let pageToken: string | undefined;
  do {
    const page = await call('Drive permissions.list', () =>
      drive.permissions.list({ fileId, supportsAllDrives: true, pageSize: 100, pageToken, fields: 'nextPageToken,permissions(id,type,emailAddress)' }),
    );
    for (const p of page.permissions ?? []) if (p.type === 'user' && p.emailAddress) found.add(p.emailAddress.toLowerCase());
    pageToken = page.nextPageToken ?? undefined;
  } while (pageToken);
  return found;
}

/**
 * Shares the folder with each address (the configured role), listing who has access first, so
 * that sharing twice makes no second permission and access someone had already is not counted
 * as Muster's. An address Drive will not share with (400: no Google account, outside the
 * allowed domains) is logged and left out.
 */
async function shareFolder(folder: StorageFolder, emails: string[], config: Configuration, env: PluginEnv): Promise<Record<string, string | null>> {
  const drive = await driveOf(config, env);
  const role = (ROLES as readonly string[]).includes(String(config.role)) ? String(config.role) : 'writer';
  const had = await accessOf(drive, folder.resource_id);
  const given: Record<string, string | null> = {};
  for (const emailAddress of new Set(emails.map((e) => e.toLowerCase()))) {
    if (had.has(emailAddress)) {
      given[emailAddress] = null;
      continue;
    }
    try {
      const made = await drive.permissions.create({
        fileId: folder.resource_id,
        supportsAllDrives: true,
        sendNotificationEmail: false,
        fields: 'id',
        requestBody: { type: 'user', role, emailAddress },
      });
      given[emailAddress] = made.data.id ?? null;
    } catch (err) {
      const failure = translate('Drive permissions.create', err);
      if (!(failure instanceof VendorError && failure.status === 400)) throw failure;
      env.log.info(`Drive would not share the folder with ${emailAddress}: ${failure.message}`);
    }
  }
  return given;
}

export const googleDrivePlugin: StoragePlugin = {
  slug: 'google-drive-storage',
  title: 'Google Workspace Plugin - Drive',
  type: 'storage',
  ...authoredByMuster,
  description: "Makes each incident's and case's folder in Google Drive and shares it with the record's people.",
  check: checkGoogle(SCOPES.drive, ['parent_id']),
  configuration: googleConfiguration({
    parent_id: driveId('Shared drive or folder the records\u2019 folders are made in (its id); default the user\u2019s My Drive'),
    // An enum, not a union of literals: the web UI's form offers an enum's values to choose from.
    role: Type.Optional(
      Type.Unsafe<(typeof ROLES)[number]>({
        type: 'string',
        enum: [...ROLES],
        default: 'writer',
        description: 'What the record\u2019s people may do in its folder',
      }),
    ),
  }),
  async createFolder(subject, config, env) {
    const drive = await driveOf(config, env);
    const parent = text(config, 'parent_id');
    const made = await call('Drive files.create', () =>
      drive.files.create({
        supportsAllDrives: true,
        fields: 'id,webViewLink',
        requestBody: {
          name: `${subject.name ?? `${subject.kind} ${subject.id}`}: ${subject.title}`.slice(0, 200),
          mimeType: FOLDER,
          ...(parent ? { parents: [parent] } : {}),
        },
      }),
    );
    if (!made.id) throw new Error('Drive made the folder but answered no id');
    const folder = {
      resource_id: made.id,
      resource_type: 'google-drive-folder',
      weblink: made.webViewLink ?? `https://drive.google.com/drive/folders/${made.id}`,
    };
    // Shared with the record's people by the job that follows them (effects/folder-sharing.ts).
    return folder;
  },
  add: (_folder, file, shelf) => shelf.add(file),
  list: (_folder, shelf) => shelf.list(),
  remove: (_folder, fileId, shelf) => shelf.remove(fileId),
  open: (_folder, fileId, shelf) => shelf.open(fileId),
  share: shareFolder,
  async unshare(folder, handles, config, env) {
    const drive = await driveOf(config, env);
    for (const permissionId of handles)
      await callUnlessGone('Drive permissions.delete', () => drive.permissions.delete({ fileId: folder.resource_id, permissionId, supportsAllDrives: true }));
  },
};
