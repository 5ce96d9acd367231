// A record's folder in Google Drive: made (files.create, the folder type) in the configured shared
// drive or parent folder when the record's first file is added, and shared with the record's people
// (permissions.create per e-mail, no notification mail: the record's page links it). The files
// Muster is given stay on Muster's own shelf as well, so lists and downloads never wait on Drive.
import { drive as driveApi } from '@googleapis/drive';
import { Type } from '@sinclair/typebox';
import { authoredByMuster } from '../authored.ts';
import type { Configuration, PluginEnv, StorageFolder, StoragePlugin } from '../../types.ts';
import { apiOptions, SCOPES } from './auth.ts';
import { checkGoogle } from './check.ts';
import { driveId, googleConfiguration } from './config.ts';
import { text } from '../configuration-text.ts';
import { call } from './errors.ts';

const FOLDER = 'application/vnd.google-apps.folder';
const ROLES = ['reader', 'commenter', 'writer'] as const;

const driveOf = (config: Configuration, env: PluginEnv) => driveApi({ version: 'v3', ...apiOptions(config, env, SCOPES.drive) });

/** Shares the folder with each address (the configured role); one shared already is shared again, which changes nothing. */
export async function shareFolder(folder: StorageFolder, emails: string[], config: Configuration, env: PluginEnv): Promise<void> {
  const drive = driveOf(config, env);
  const role = (ROLES as readonly string[]).includes(String(config.role)) ? String(config.role) : 'writer';
  for (const emailAddress of [...new Set(emails.map((e) => e.toLowerCase()))])
    await call('Drive permissions.create', () =>
      drive.permissions.create({
        fileId: folder.resource_id,
        supportsAllDrives: true,
        sendNotificationEmail: false,
        requestBody: { type: 'user', role, emailAddress },
      }),
    );
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
    const drive = driveOf(config, env);
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
    await shareFolder(
      folder,
      [subject.owner, subject.reporter].filter((e): e is string => !!e),
      config,
      env,
    );
    return folder;
  },
  add: (_folder, file, shelf) => shelf.add(file),
  list: (_folder, shelf) => shelf.list(),
  remove: (_folder, fileId, shelf) => shelf.remove(fileId),
  open: (_folder, fileId, shelf) => shelf.open(fileId),
};
