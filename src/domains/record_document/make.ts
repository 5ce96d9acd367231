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
import { tellConversations } from '../conversation/enqueue.ts';
import { matchFilters } from '../effects/filter-match.ts';
import { logEvents } from '../event/service.ts';
import { incidentTerm } from '../incident/table.ts';
import type { RecordChange } from '../lifecycle/events.ts';
import { ownerOf, type RecordKind } from '../lifecycle/kind.ts';
import { subjectsOf } from '../lifecycle/subject.ts';
import { type ActiveInstance, instanceLookup, pluginEnv } from '../plugin/active.ts';
import { enqueueDocuments } from './enqueue.ts';
import { searchFilter } from '../search_filter/table.ts';
import { term } from '../term/table.ts';
import { reviewValues, subjectValues } from './facts.ts';
import { caseDocumentLink, incidentDocumentLink, recordDocument } from './table.ts';
import { templatesFor } from './templates.ts';

const quiet = { info() {}, warn() {} };

/** Where a step runs: in the write (inline plugins) or in the job after it (plugins that reach outside). */
export type DocumentsRun = 'write' | 'job';

/**
 * The projects' document plugins and resolvers, each looked up once per call (or per transaction,
 * plugin/active.ts): a batch of new records (the cases a batch of signal instances opens) mostly
 * shares one project.
 */
type Plugins = <T extends 'document' | 'document-resolver'>(projectId: number, type: T) => Promise<ActiveInstance<T> | undefined>;

const pluginsOf = (tx: Executor, ctx: Ctx): Plugins => instanceLookup(tx, ctx.settings);

/** The project's document plugin, when it runs `where` (an inline one in the write, any other in the job). */
async function documentPlugin(plugins: Plugins, projectId: number, where: DocumentsRun) {
  const instance = await plugins(projectId, 'document');
  return instance && !!instance.plugin.inline === (where === 'write') ? instance : undefined;
}

/** Whether the project's document plugin reaches outside, so that its steps wait for a job. */
async function runsInJob(plugins: Plugins, projectId: number) {
  return (await documentPlugin(plugins, projectId, 'job')) !== undefined;
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

/** A document made for a record, to be inserted as one it owns. */
interface Made {
  subject: Subject;
  docKind: RecordDocumentKind;
  doc: KeptDocument & { description?: string | null };
}

/** A document to insert under `name`, owned by its subject, with its first revision when it has content. */
const documentRow = (i: number, m: Made, name: string) => ({
  i,
  project_id: m.subject.project.id,
  name,
  // Its kind's own description: nested reads show the column as it is.
  description: m.doc.description ?? describeDocument(m.doc.resource_type),
  resource_id: m.doc.resource_id || null,
  resource_type: m.doc.resource_type || null,
  weblink: m.doc.weblink || null,
  content: m.doc.content ?? null,
  owner: m.subject.id,
  revised: m.doc.content !== undefined,
});

/**
 * Inserts the documents, each with its owner's link and its first revision, in one statement; a
 * document whose name its project has taken is left out. Returns the ids of those stored, by `i`.
 */
async function storeOwned(tx: Executor, ctx: Ctx, kind: RecordKind, rows: ReturnType<typeof documentRow>[]): Promise<Map<number, number>> {
  const org = ctx.organization.id;
  const stored = await runStatement<{ i: number; id: number }>(
    tx,
    sql`
    WITH x AS (
      SELECT * FROM json_to_recordset(${JSON.stringify(rows)}::json) AS x(i int, project_id int, name text, description text, resource_id text,
        resource_type text, weblink text, content text, owner int, revised boolean)
    ),
    d AS (
      INSERT INTO ${document} (organization_id, project_id, name, description, resource_id, resource_type, weblink, content)
      SELECT ${org}::int, project_id, name, description, resource_id, resource_type, weblink, content FROM x ORDER BY i
      ON CONFLICT DO NOTHING
      RETURNING id, project_id, name
    ),
    s AS (SELECT x.i, x.owner, x.content, x.revised, d.id FROM x JOIN d ON d.project_id = x.project_id AND d.name = x.name),
    linked AS (INSERT INTO ${recordDocument} (document_id, ${sql.identifier(kind.ownerColumn)}) SELECT id, owner FROM s),
    revised AS (
      INSERT INTO ${documentRevision} (organization_id, document_id, version, content, author)
      SELECT ${org}::int, id, 1, content, ${ctx.user.email}::text FROM s WHERE revised
    )
    SELECT i, id FROM s`,
  );
  return new Map(stored.map((r) => [r.i, r.id]));
}

/**
 * Inserts documents the records own, each under the first of its name's numbered forms not taken
 * in its project, with their first revisions; returns their ids in order (undefined where all
 * forms were taken). The first forms of distinct names go in one statement, the rest one by one.
 */
async function insertOwned(tx: Executor, ctx: Ctx, kind: RecordKind, made: Made[]): Promise<(number | undefined)[]> {
  const ids: (number | undefined)[] = new Array(made.length).fill(undefined);
  const nameOf = (m: Made) => `${m.subject.project.id}\u0000${m.doc.name}`;
  const first = new Map<string, number>();
  for (const [i, m] of made.entries()) if (!first.has(nameOf(m))) first.set(nameOf(m), i);
  const together = [...first.values()];
  if (together.length)
    for (const [i, id] of await storeOwned(
      tx,
      ctx,
      kind,
      together.map((i) => documentRow(i, made[i], made[i].doc.name)),
    ))
      ids[i] = id;
  for (const [i, m] of made.entries()) {
    for (let n = 2; ids[i] === undefined && n <= 20; n++) ids[i] = (await storeOwned(tx, ctx, kind, [documentRow(i, m, `${m.doc.name} (${n})`)])).get(i);
  }
  return ids;
}

/**
 * Makes the records' documents of their `docKind` through each project's document plugin (when it
 * runs `where`), stores them together, and writes their timeline events.
 */
async function makeDocuments(
  tx: Executor,
  ctx: Ctx,
  plugins: Plugins,
  kind: RecordKind,
  wanted: { subject: Subject; docKind: RecordDocumentKind; values: Record<string, string> }[],
  where: DocumentsRun,
): Promise<void> {
  const making: ((typeof wanted)[number] & { instance: NonNullable<Awaited<ReturnType<typeof documentPlugin>>> })[] = [];
  for (const w of wanted) {
    const instance = await documentPlugin(plugins, w.subject.project.id, where);
    if (instance) making.push({ ...w, instance });
  }
  const templates = await templatesFor(
    tx,
    making.map(({ subject, docKind }) => ({ kind: docKind, recordId: subject.id, projectId: subject.project.id })),
  );
  const made: Made[] = [];
  for (const [i, { subject, docKind, values, instance }] of making.entries()) {
    const doc = await instance.plugin.create(
      { kind: docKind, subject, template: templates[i], values },
      instance.config,
      pluginEnv(ctx.settings, `${kind.name}:${subject.id}:${docKind}`, quiet),
    );
    made.push({ subject, docKind, doc });
  }
  if (made.length === 0) return;
  const ids = await insertOwned(tx, ctx, kind, made);
  const stored = made.flatMap((m, i) => (ids[i] === undefined ? [] : [{ ...m, id: ids[i]! }]));
  await logEvents(
    tx,
    ctx,
    stored.map(({ subject, docKind, doc, id }) => ({
      record: ownerOf(kind, subject.id),
      description: `${TITLES[docKind]} created`,
      details: { document_id: id, weblink: doc.weblink },
    })),
  );
  await tellConversations(
    tx,
    kind,
    stored.map(({ subject, docKind, doc }) => ({ id: subject.id, event: { event: 'resource', resource: { what: TITLES[docKind], weblink: doc.weblink } } })),
  );
}

/**
 * What Muster lends a resolver: the project's own documents (owned by no record) whose filters or
 * terms match. Those with filters are read once per project for all the records resolved with it.
 */
function directoryFor(tx: Executor, kind: RecordKind): DocumentDirectory {
  const filtered = new Map<number, Promise<Awaited<ReturnType<typeof filteredDocuments>>>>();
  const filteredOf = (projectId: number) => {
    // Through Promise.resolve: a query builder awaited twice would run twice.
    if (!filtered.has(projectId)) filtered.set(projectId, Promise.resolve(filteredDocuments(tx, kind, projectId)));
    return filtered.get(projectId)!;
  };
  return {
    async byFilters(subject) {
      const rows = await filteredOf(subject.project.id);
      if (rows.length === 0) return [];
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
  };
}

/** The project's own documents (owned by no record) with search filters about records of `kind`, one row per filter. */
const filteredDocuments = (tx: Executor, kind: RecordKind, projectId: number) =>
  tx
    .select({ id: document.id, name: document.name, weblink: document.weblink, filter_id: searchFilter.id, expression: searchFilter.expression })
    .from(document)
    .innerJoin(documentFilter, eq(documentFilter.document_id, document.id))
    .innerJoin(searchFilter, and(eq(searchFilter.id, documentFilter.search_filter_id), eq(searchFilter.subject, kind.name)))
    .leftJoin(recordDocument, eq(recordDocument.document_id, document.id))
    .where(and(eq(document.project_id, projectId), isNull(recordDocument.document_id)));

/** Links the project's documents the resolver finds relevant to the record. */
async function resolveDocuments(tx: Executor, plugins: Plugins, directory: DocumentDirectory, kind: RecordKind, subject: Subject): Promise<void> {
  const resolver = await plugins(subject.project.id, 'document-resolver');
  if (!resolver) return;
  const found = await resolver.plugin.resolve(subject, directory, resolver.config);
  if (found.length === 0) return;
  const link = kind.name === 'incident' ? incidentDocumentLink : caseDocumentLink;
  await tx
    .insert(link)
    .values(found.map((d) => ({ [kind.ownerColumn]: subject.id, document_id: d.id })))
    .onConflictDoNothing();
}

/** After records of `kind` were created (in the caller's transaction): their documents, and the project's relevant ones linked. */
export async function recordDocumentsCreated(tx: Executor, ctx: Ctx, kind: RecordKind, ids: number[], where: DocumentsRun = 'write'): Promise<void> {
  const subjects = await subjectsOf(tx, ctx.settings, kind, ids);
  const plugins = pluginsOf(tx, ctx);
  if (where === 'write') for (const subject of subjects) if (await runsInJob(plugins, subject.project.id)) await enqueueDocuments(tx, ctx, kind, subject.id);
  await makeDocuments(
    tx,
    ctx,
    plugins,
    kind,
    subjects.map((subject) => ({ subject, docKind: kind.name, values: subjectValues(subject) })),
    where,
  );
  if (where === 'write') {
    const directory = directoryFor(tx, kind);
    for (const subject of subjects) await resolveDocuments(tx, plugins, directory, kind, subject);
  }
  // Created Stable or Closed: its review at once.
  for (const subject of subjects)
    if (subject.status === 'Stable' || subject.status === 'Closed')
      await recordDocumentsUpdated(tx, ctx, kind, subject.id, { status: { from: 'Active', to: subject.status } }, where);
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
  const plugins = pluginsOf(tx, ctx);
  if (where === 'write' && (await runsInJob(plugins, subject.project.id))) return enqueueDocuments(tx, ctx, kind, id, change);
  const owned = await ownedDocuments(tx, kind, id);
  if (kind.name === 'incident') {
    const review = owned.find((d) => d.resource_type === RECORD_DOCUMENT_TYPES.review);
    const values = await reviewValues(tx, id, subject);
    if (!review) await makeDocuments(tx, ctx, plugins, kind, [{ subject, docKind: 'review', values }], where);
    else if (to === 'Closed' && !review.read_only) await refresh(tx, ctx, plugins, review, values, where);
  }
  if (to === 'Closed') await makeReadOnly(tx, ctx, plugins, await ownedDocuments(tx, kind, id), subject, where);
}

/** Fills placeholders of the document still waiting for a value, as a new revision by the caller. */
async function refresh(
  tx: Executor,
  ctx: Ctx,
  plugins: Plugins,
  doc: Awaited<ReturnType<typeof ownedDocuments>>[number],
  values: Record<string, string>,
  where: DocumentsRun,
) {
  const [project] = await tx.select({ project_id: document.project_id }).from(document).where(eq(document.id, doc.id));
  const instance = await documentPlugin(plugins, project.project_id, where);
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

async function makeReadOnly(
  tx: Executor,
  ctx: Ctx,
  plugins: Plugins,
  owned: Awaited<ReturnType<typeof ownedDocuments>>,
  subject: Subject,
  where: DocumentsRun,
) {
  // Muster keeps the text of an inline plugin's documents; an outside one's live with it.
  const open = owned.filter((d) => !d.read_only && (where === 'job' || d.content !== null));
  if (open.length === 0) return;
  const instance = await documentPlugin(plugins, subject.project.id, where);
  if (!instance) return;
  const done: number[] = [];
  for (const d of open)
    if (await instance.plugin.makeReadOnly(kept(d), instance.config, pluginEnv(ctx.settings, `document:${d.id}:read-only`, quiet))) done.push(d.id);
  if (done.length) await tx.update(document).set({ read_only: true }).where(inArray(document.id, done));
}
