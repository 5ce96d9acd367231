// Editing a document's text: an edit names the version it was made from, and one made from an older
// version than the current answers 409 instead of overwriting what someone else saved. Every saved
// version is kept with who saved it and when. A read-only document (its record Closed) takes none.
import { and, desc, eq } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import type { Ctx } from '../../server/context.ts';
import { errors } from '../../server/errors.ts';
import { visibleRows } from '../../server/visibility.ts';
import { document, documentRevision } from '../document/table.ts';
import type { DocumentContentReadT, DocumentContentUpdateT } from './schema.ts';

const THING = 'A document';

/** The document, if the caller may see it (in their organization, its record visible to them); 404 otherwise. */
export async function findDocument(db: Executor, ctx: Ctx, id: number, lock = false) {
  const query = db
    .select()
    .from(document)
    .where(and(eq(document.id, id), eq(document.organization_id, ctx.organization.id), visibleRows(document, ctx)));
  const [row] = await (lock ? query.for('update') : query);
  if (!row) throw errors.notFound(THING);
  return row;
}

const contentRead = (row: typeof document.$inferSelect): DocumentContentReadT => ({
  id: row.id,
  name: row.name,
  resource_type: row.resource_type,
  content: row.content ?? '',
  version: row.version,
  read_only: row.read_only,
  updated_at: row.updated_at.toISOString(),
});

export async function getContent(ctx: Ctx, id: number): Promise<DocumentContentReadT> {
  return contentRead(await findDocument(ctx.db, ctx, id));
}

export async function saveContent(ctx: Ctx, id: number, body: DocumentContentUpdateT): Promise<DocumentContentReadT> {
  return ctx.db.transaction(async (tx) => {
    const row = await findDocument(tx, ctx, id, true);
    if (row.read_only) throw errors.forbidden('This document is read-only: its incident or case is closed.');
    if (body.version !== row.version)
      throw errors.conflict(
        `This document was saved by someone else since you opened it (version ${row.version}, yours ${body.version}). Reload it and reapply your change.`,
      );
    if (body.content === row.content) return contentRead(row);
    const version = row.version + 1;
    const [saved] = await tx.update(document).set({ content: body.content, version, updated_at: new Date() }).where(eq(document.id, id)).returning();
    await tx.insert(documentRevision).values({ organization_id: ctx.organization.id, document_id: id, version, content: body.content, author: ctx.user.email });
    return contentRead(saved);
  });
}

/** Every saved version, newest first. */
export async function listRevisions(ctx: Ctx, id: number) {
  await findDocument(ctx.db, ctx, id);
  const rows = await ctx.db
    .select({ version: documentRevision.version, author: documentRevision.author, created_at: documentRevision.created_at, content: documentRevision.content })
    .from(documentRevision)
    .where(eq(documentRevision.document_id, id))
    .orderBy(desc(documentRevision.version));
  return rows.map((r) => ({ ...r, created_at: r.created_at.toISOString() }));
}
