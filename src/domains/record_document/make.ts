// A record's documents, made as it is written: its incident (or case) document when it is created,
// the post-incident review when the incident becomes Stable (or Closed without passing Stable), the
// review's last facts and read-only documents when it closes; and the project's documents the
// resolver finds relevant, linked to it. The project's document plugin makes them: one that reaches
// nothing outside Muster (Muster's own, `inline`) runs here, in the write's transaction; one that
// reaches an outside system runs the same steps in a `record-documents` job after the write
// (jobs.ts), so that a document service that is down never fails or slows the write.
import { and, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Executor } from '../../db/connection.ts';
import { runStatement } from '../../db/statements.ts';
import type { DocumentCandidate, DocumentDirectory, KeptDocument, RecordDocumentKind, Subject } from '../../plugins/types.ts';
import { RECORD_DOCUMENT_TYPES } from '../../plugins/types.ts';
import type { Ctx } from '../../server/context.ts';
import { describeDocument } from '../document/group.ts';
import { document, documentFilter, documentRevision } from '../document/table.ts';
import { tellConversation } from '../conversation/enqueue.ts';
import { matchFilters } from '../effects/filter-match.ts';
import { logEvent } from '../event/service.ts';
import { incidentTerm } from '../incident/table.ts';
import type { RecordChange } from '../lifecycle/events.ts';
import { ownerOf, type RecordKind } from '../lifecycle/kind.ts';
import { subjectsOf } from '../lifecycle/subject.ts';
import { activeInstance, pluginEnv } from '../plugin/active.ts';
import { enqueueDocuments } from './enqueue.ts';
import { searchFilter } from '../search_filter/table.ts';
import { term } from '../term/table.ts';
import { reviewValues, subjectValues } from './facts.ts';
import { caseDocumentLink, incidentDocumentLink, recordDocument } from './table.ts';
import { templateFor } from './templates.ts';

const quiet = { info() {}, warn() {} };

/** Where a step runs: in the write (inline plugins) or in the job after it (plugins that reach outside). */
export type DocumentsRun = 'write' | 'job';

/** The project's document plugin, when it runs `where` (an inline one in the write, any other in the job). */
async function documentPlugin(tx: Executor, ctx: Ctx, projectId: number, where: DocumentsRun) {
  const instance = await activeInstance(tx, ctx.settings, projectId, 'document');
  return instance && !!instance.plugin.inline === (where === 'write') ? instance : undefined;
}

/** Whether the project's document plugin reaches outside, so that its steps wait for a job. */
async function runsInJob(tx: Executor, ctx: Ctx, projectId: number) {
  return (await documentPlugin(tx, ctx, projectId, 'job')) !== undefined;
}
const TITLES: Record<RecordDocumentKind, string> = { incident: 'Incident document', case: 'Case document', review: 'Post-incident review' };

/** The documents the record owns, with what the plugin made them as. */
export async function ownedDocuments(tx: Executor, kind: RecordKind, recordId: number) {
  return tx
    .select({
      id: document.id,
      name: document.name,
      resource_id: document.resource_id,
      resource_type: document.resource_type,
      weblink: document.weblink,
      content: document.content,
      version: document.version,
      read_only: document.read_only,
    })
    .from(recordDocument)
    .innerJoin(document, eq(document.id, recordDocument.document_id))
    .where(eq(recordDocument[kind.ownerColumn], recordId));
}

const kept = (d: Awaited<ReturnType<typeof ownedDocuments>>[number]): KeptDocument => ({
  name: d.name,
  resource_id: d.resource_id ?? '',
  resource_type: d.resource_type ?? '',
  weblink: d.weblink ?? '',
  content: d.content ?? undefined,
});

/**
 * Inserts a document the record owns, under the first of its name's numbered forms not taken in
 * the project, with its first revision; returns its id.
 */
export async function insertOwned(
  tx: Executor,
  ctx: Ctx,
  kind: RecordKind,
  subject: Subject,
  doc: KeptDocument & { description?: string | null },
): Promise<number | undefined> {
  for (let n = 1; n <= 20; n++) {
    const [row] = await tx
      .insert(document)
      .values({
        organization_id: ctx.organization.id,
        project_id: subject.project.id,
        name: n === 1 ? doc.name : `${doc.name} (${n})`,
        // Its kind's own description: nested reads show the column as it is.
        description: doc.description ?? describeDocument(doc.resource_type),
        resource_id: doc.resource_id || null,
        resource_type: doc.resource_type || null,
        weblink: doc.weblink || null,
        content: doc.content ?? null,
      })
      .onConflictDoNothing()
      .returning({ id: document.id });
    if (!row) continue;
    await tx.insert(recordDocument).values({ document_id: row.id, [kind.ownerColumn]: subject.id });
    if (doc.content !== undefined)
      await tx
        .insert(documentRevision)
        .values({ organization_id: ctx.organization.id, document_id: row.id, version: 1, content: doc.content, author: ctx.user.email });
    return row.id;
  }
  return undefined;
}

/** Makes the record's document of `docKind` through the project's document plugin (when it runs inline); returns whether it made one. */
async function makeDocument(
  tx: Executor,
  ctx: Ctx,
  kind: RecordKind,
  subject: Subject,
  docKind: RecordDocumentKind,
  values: Record<string, string>,
  where: DocumentsRun,
): Promise<boolean> {
  const instance = await documentPlugin(tx, ctx, subject.project.id, where);
  if (!instance) return false;
  const template = await templateFor(tx, docKind, subject.id, subject.project.id);
  const made = await instance.plugin.create(
    { kind: docKind, subject, template, values },
    instance.config,
    pluginEnv(ctx.settings, `${kind.name}:${subject.id}:${docKind}`, quiet),
  );
  const id = await insertOwned(tx, ctx, kind, subject, made);
  if (id === undefined) return false;
  await logEvent(tx, ctx, ownerOf(kind, subject.id), { description: `${TITLES[docKind]} created`, details: { document_id: id, weblink: made.weblink } });
  await tellConversation(tx, kind, [subject.id], { event: 'resource', resource: { what: TITLES[docKind], weblink: made.weblink } });
  return true;
}

/** What Muster lends a resolver: the project's own documents (owned by no record) whose filters or terms match. */
const directoryFor = (tx: Executor, kind: RecordKind): DocumentDirectory => ({
  async byFilters(subject) {
    const rows = await tx
      .select({ id: document.id, name: document.name, weblink: document.weblink, filter_id: searchFilter.id, expression: searchFilter.expression })
      .from(document)
      .innerJoin(documentFilter, eq(documentFilter.document_id, document.id))
      .innerJoin(searchFilter, and(eq(searchFilter.id, documentFilter.search_filter_id), eq(searchFilter.subject, kind.name)))
      .leftJoin(recordDocument, eq(recordDocument.document_id, document.id))
      .where(and(eq(document.project_id, subject.project.id), isNull(recordDocument.document_id)));
    const matched = await matchFilters(
      tx,
      kind,
      [subject.id],
      rows.map((r) => ({ id: r.filter_id, expression: r.expression })),
    );
    return rows.filter((r) => matched.get(r.filter_id)?.has(subject.id)).map(({ id, name, weblink }) => ({ id, name, weblink }));
  },
  async byTerms(subject) {
    if (kind.name !== 'incident') return [];
    return runStatement<DocumentCandidate>(
      tx,
      sql`SELECT DISTINCT ${document.id} AS id, ${document.name} AS name, ${document.weblink} AS weblink FROM ${document}
        JOIN ${term} ON ${document.search_vector} @@ plainto_tsquery('simple', ${term.text})
        JOIN ${incidentTerm} ON ${incidentTerm.term_id} = ${term.id} AND ${incidentTerm.incident_id} = ${subject.id}
        WHERE ${document.project_id} = ${subject.project.id} AND ${document.id} NOT IN (SELECT ${recordDocument.document_id} FROM ${recordDocument})`,
    );
  },
});

/** Links the project's documents the resolver finds relevant to the record. */
async function resolveDocuments(tx: Executor, ctx: Ctx, kind: RecordKind, subject: Subject): Promise<void> {
  const resolver = await activeInstance(tx, ctx.settings, subject.project.id, 'document-resolver');
  if (!resolver) return;
  const found = await resolver.plugin.resolve(subject, directoryFor(tx, kind), resolver.config);
  if (found.length === 0) return;
  const link = kind.name === 'incident' ? incidentDocumentLink : caseDocumentLink;
  await tx
    .insert(link)
    .values(found.map((d) => ({ [kind.ownerColumn]: subject.id, document_id: d.id })))
    .onConflictDoNothing();
}

/** After records of `kind` were created (in the caller's transaction): their documents, and the project's relevant ones linked. */
export async function recordDocumentsCreated(tx: Executor, ctx: Ctx, kind: RecordKind, ids: number[], where: DocumentsRun = 'write'): Promise<void> {
  for (const subject of await subjectsOf(tx, ctx.settings, kind, ids)) {
    if (where === 'write' && (await runsInJob(tx, ctx, subject.project.id))) await enqueueDocuments(tx, ctx, kind, subject.id);
    await makeDocument(tx, ctx, kind, subject, kind.name, subjectValues(subject), where);
    if (where === 'write') await resolveDocuments(tx, ctx, kind, subject);
    // Created Stable or Closed: its review at once.
    if (subject.status === 'Stable' || subject.status === 'Closed')
      await recordDocumentsUpdated(tx, ctx, kind, subject.id, { status: { from: 'Active', to: subject.status } }, where);
  }
}

/**
 * After a record's status changed: an incident that became Stable (or Closed) gets its review, and
 * on closing the review takes the facts it waited for and the record's documents stop taking edits
 * where the plugin's configuration says so.
 */
export async function recordDocumentsUpdated(
  tx: Executor,
  ctx: Ctx,
  kind: RecordKind,
  id: number,
  change: RecordChange,
  where: DocumentsRun = 'write',
): Promise<void> {
  const to = change.status?.to;
  if (to !== 'Stable' && to !== 'Closed') return;
  const [subject] = await subjectsOf(tx, ctx.settings, kind, [id]);
  if (!subject) return;
  if (where === 'write' && (await runsInJob(tx, ctx, subject.project.id))) return enqueueDocuments(tx, ctx, kind, id, change);
  const owned = await ownedDocuments(tx, kind, id);
  if (kind.name === 'incident') {
    const review = owned.find((d) => d.resource_type === RECORD_DOCUMENT_TYPES.review);
    const values = await reviewValues(tx, id, subject);
    if (!review) await makeDocument(tx, ctx, kind, subject, 'review', values, where);
    else if (to === 'Closed' && !review.read_only) await refresh(tx, ctx, review, values, where);
  }
  if (to === 'Closed') await makeReadOnly(tx, ctx, await ownedDocuments(tx, kind, id), subject, where);
}

/** Fills placeholders of the document still waiting for a value, as a new revision by the caller. */
async function refresh(tx: Executor, ctx: Ctx, doc: Awaited<ReturnType<typeof ownedDocuments>>[number], values: Record<string, string>, where: DocumentsRun) {
  const [project] = await tx.select({ project_id: document.project_id }).from(document).where(eq(document.id, doc.id));
  const instance = await documentPlugin(tx, ctx, project.project_id, where);
  if (!instance) return;
  const updated = await instance.plugin.update(kept(doc), values, instance.config, pluginEnv(ctx.settings, `document:${doc.id}:${doc.version}`, quiet));
  if (updated.content === undefined || updated.content === doc.content) return;
  await tx
    .update(document)
    .set({ content: updated.content, version: doc.version + 1, updated_at: new Date() })
    .where(eq(document.id, doc.id));
  await tx
    .insert(documentRevision)
    .values({ organization_id: ctx.organization.id, document_id: doc.id, version: doc.version + 1, content: updated.content, author: ctx.user.email });
}

async function makeReadOnly(tx: Executor, ctx: Ctx, owned: Awaited<ReturnType<typeof ownedDocuments>>, subject: Subject, where: DocumentsRun) {
  // Muster keeps the text of an inline plugin's documents; an outside one's live with it.
  const open = owned.filter((d) => !d.read_only && (where === 'job' || d.content !== null));
  if (open.length === 0) return;
  const instance = await documentPlugin(tx, ctx, subject.project.id, where);
  if (!instance) return;
  const done: number[] = [];
  for (const d of open)
    if (await instance.plugin.makeReadOnly(kept(d), instance.config, pluginEnv(ctx.settings, `document:${d.id}:read-only`, quiet))) done.push(d.id);
  if (done.length) await tx.update(document).set({ read_only: true }).where(inArray(document.id, done));
}
