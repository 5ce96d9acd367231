// Muster's own storage: a record's files kept in Muster's database, on the shelf Muster lends it,
// so the embedded install needs nothing more. Its folder is the record's files in the web UI.
import { authoredByMuster } from './authored.ts';
import { recordLink, type StoragePlugin } from '../types.ts';

export const storagePlugin: StoragePlugin = {
  slug: 'muster-storage',
  title: 'Muster Plugin - Storage',
  type: 'storage',
  ...authoredByMuster,
  description: "Keeps the files attached to incidents and cases in Muster's own database.",
  enabledByDefault: true,
  createFolder(subject, _config, env) {
    return {
      resource_id: `${subject.kind}-${subject.id}`,
      resource_type: 'muster-storage-folder',
      weblink: `${recordLink(env.uiUrl, subject.organization.slug, subject.kind, subject.name ?? String(subject.id))}#files`,
    };
  },
  add: (_folder, file, shelf) => shelf.add(file),
  list: (_folder, shelf) => shelf.list(),
  remove: (_folder, fileId, shelf) => shelf.remove(fileId),
  open: (_folder, fileId, shelf) => shelf.open(fileId),
};
