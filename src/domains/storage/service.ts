// The files of an incident or a case, through the project's storage plugin. Muster lends the
// plugin a shelf in its own database (the built-in plugin keeps everything there); the record's
// folder is made when its first file is added and shown as the record's `storage`. Files are
// seen by whoever may see the record: a Restricted record's are Restricted with it.
import { and, asc, eq, sql } from 'drizzle-orm';
import type { Static } from '@sinclair/typebox';
import type { Executor } from '../../db/connection.ts';
import type { FileShelf, FileUpload, StorageFolder, StoredFile } from '../../plugins/types.ts';
import type { Ctx } from '../../server/context.ts';
import { errors, invalid } from '../../server/errors.ts';
import { tellConversation } from '../conversation/enqueue.ts';
import { logEvent } from '../event/service.ts';
import { ownerOf, type RecordRows } from '../lifecycle/kind.ts';
import { subjectOf } from '../lifecycle/subject.ts';
import type { incident } from '../lifecycle/table.ts';
import { assertVisible } from '../lifecycle/visibility.ts';
import { activeInstance, pluginEnv } from '../plugin/active.ts';
import { membershipsChanged } from '../plugin/memberships.ts';
import type { FileRead } from './schema.ts';
import { recordFile } from './table.ts';

/** Bytes read from the database per chunk of a download. */
const CHUNK = 64 * 1024;

const fileColumns = {
  id: recordFile.id,
  name: recordFile.name,
  content_type: recordFile.content_type,
  size: recordFile.size,
  creator: recordFile.creator,
  created_at: recordFile.created_at,
};

type FileRow = { id: number; name: string; content_type: string; size: number; creator: string; created_at: Date };
const stored = (r: FileRow): StoredFile & { creator: string } => ({ ...r, id: String(r.id), created_at: r.created_at.toISOString() });
export const fileRead = (f: StoredFile & { creator?: string }): Static<typeof FileRead> => ({
  id: Number(f.id),
  name: f.name,
  content_type: f.content_type,
  size: f.size,
  creator: f.creator ?? '',
  created_at: f.created_at,
});

/** The record's files in Muster's database, scoped to its organization and to the record. */
export function shelfOf(db: Executor, ctx: Ctx, kind: RecordRows, record: { id: number; project_id: number }): FileShelf {
  const column = kind.ownerColumn === 'incident_id' ? recordFile.incident_id : recordFile.case_id;
  const mine = (fileId?: number) =>
    and(eq(recordFile.organization_id, ctx.organization.id), eq(column, record.id), fileId === undefined ? undefined : eq(recordFile.id, fileId));
  const asId = (fileId: string) => (/^\d{1,9}$/.test(fileId) ? Number(fileId) : 0);
  return {
    async add(file: FileUpload) {
      const [row] = await db
        .insert(recordFile)
        .values({
          organization_id: ctx.organization.id,
          project_id: record.project_id,
          ...ownerOf(kind, record.id),
          name: file.name,
          content_type: file.content_type,
          size: file.content.length,
          content: file.content,
          creator: file.creator,
        })
        .returning(fileColumns);
      return stored(row);
    },
    async list() {
      return (await db.select(fileColumns).from(recordFile).where(mine()).orderBy(asc(recordFile.id))).map(stored);
    },
    async remove(fileId) {
      return (
        (
          await db
            .delete(recordFile)
            .where(mine(asId(fileId)))
            .returning({ id: recordFile.id })
        ).length > 0
      );
    },
    async open(fileId) {
      const id = asId(fileId);
      const [row] = await db.select(fileColumns).from(recordFile).where(mine(id));
      if (!row) return null;
      // Read a chunk at a time, so a large file is never held whole in memory.
      async function* chunks() {
        for (let at = 0; at < row.size; at += CHUNK) {
          const [part] = await db
            .select({ bytes: sql<Buffer>`substring(${recordFile.content} from ${at + 1} for ${CHUNK})`.mapWith(recordFile.content) })
            .from(recordFile)
            .where(mine(id));
          if (!part) return;
          yield part.bytes;
        }
      }
      return { file: stored(row), chunks: chunks() };
    },
  };
}

/** The record (when the caller may see it) and its project's storage plugin; 422 when it has none. */
async function storageFor(tx: Executor, ctx: Ctx, kind: RecordRows, id: number) {
  const record = (await assertVisible(ctx, kind, id, tx)) as typeof incident.$inferSelect;
  const storage = await activeInstance(tx, ctx.settings, record.project_id, 'storage');
  if (!storage) throw invalid(['file'], 'The project has no storage plugin enabled.');
  return { record, storage, shelf: shelfOf(tx, ctx, kind, record), folder: record.storage as StorageFolder | null };
}

/** Adds a file (its type already found from its bytes); the record's folder is made with its first file. */
export async function addFile(ctx: Ctx, kind: RecordRows, id: number, file: FileUpload): Promise<Static<typeof FileRead>> {
  return ctx.db.transaction(async (tx) => {
    const { record, storage, shelf, folder: existing } = await storageFor(tx, ctx, kind, id);
    let folder = existing;
    if (!folder) {
      const subject = (await subjectOf(tx, ctx.settings, kind, id))!;
      const made = await Promise.resolve(
        storage.plugin.createFolder(subject, storage.config, pluginEnv(ctx.settings, `${kind.name}:${id}:storage`, { info() {}, warn() {} })),
      ).catch((err: unknown) => {
        // A storage service that refuses or does not answer: the caller hears it is unavailable, the operator why.
        ctx.log?.warn({ plugin: storage.plugin.slug, err: (err as Error).message }, 'storage plugin could not make the folder');
        throw errors.storageUnavailable();
      });
      folder = { resource_id: made.resource_id, resource_type: made.resource_type, weblink: made.weblink };
      await tx
        .update(kind.table as typeof incident)
        .set({ storage: folder })
        .where(eq((kind.table as typeof incident).id, record.id));
      await tellConversation(tx, kind, [id], { event: 'resource', resource: { what: 'Files', weblink: folder.weblink } });
      // Shared with the record's people by a job, so the upload waits on no more than the folder.
      await membershipsChanged(tx, kind.name, id);
    }
    const added = await storage.plugin.add(folder, file, shelf, storage.config);
    await logEvent(tx, ctx, ownerOf(kind, id), {
      description: `File added: ${added.name} (${added.content_type}, ${added.size} bytes)`,
      details: { file: { id: added.id, name: added.name } },
    });
    return fileRead({ creator: file.creator, ...added });
  });
}

export async function listFiles(ctx: Ctx, kind: RecordRows, id: number): Promise<Static<typeof FileRead>[]> {
  return ctx.db.transaction(async (tx) => {
    const { storage, shelf, folder } = await storageFor(tx, ctx, kind, id);
    if (!folder) return [];
    return (await storage.plugin.list(folder, shelf, storage.config)).map(fileRead);
  });
}

/** A file and its bytes in chunks; 404 when the record or the file is not there for the caller. */
export async function openFile(ctx: Ctx, kind: RecordRows, id: number, fileId: number) {
  // Not in a transaction: the chunks are read as the answer is sent, each on its own.
  const { storage, shelf, folder } = await storageFor(ctx.db, ctx, kind, id);
  const opened = folder && (await storage.plugin.open(folder, String(fileId), shelf, storage.config));
  if (!opened) throw errors.notFound('A file');
  return opened;
}

/**
 * Removes a file: its creator may, and whoever may edit the record (`canEdit` throws 403 for the
 * rest). 404 when it is not there for the caller.
 */
export async function removeFile(ctx: Ctx, kind: RecordRows, id: number, fileId: number, canEdit: (tx: Executor) => Promise<unknown>): Promise<null> {
  await ctx.db.transaction(async (tx) => {
    const { storage, shelf, folder } = await storageFor(tx, ctx, kind, id);
    const [file] = await tx
      .select({ name: recordFile.name, creator: recordFile.creator })
      .from(recordFile)
      .where(
        and(
          eq(recordFile.id, fileId),
          eq(recordFile.organization_id, ctx.organization.id),
          eq(kind.ownerColumn === 'incident_id' ? recordFile.incident_id : recordFile.case_id, id),
        ),
      );
    if (!folder || !file) throw errors.notFound('A file');
    if (file.creator.toLowerCase() !== ctx.user.email.toLowerCase()) await canEdit(tx);
    if (!(await storage.plugin.remove(folder, String(fileId), shelf, storage.config))) throw errors.notFound('A file');
    await logEvent(tx, ctx, ownerOf(kind, id), { description: `File removed: ${file.name}`, details: { file: { id: String(fileId), name: file.name } } });
  });
  return null;
}
