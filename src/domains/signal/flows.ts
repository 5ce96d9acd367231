// Signal instance ingestion (POST /{organization}/signals/instances): the busiest path of the
// service. Detection systems post in bursts, so requests are ingested in batches (db/batcher.ts):
// the requests of one caller that arrive while earlier ones are being written are written together,
// in one transaction whose number of statements does not grow with the batch. Nothing is answered
// before its batch has committed.
//
//  1. Checks on the body alone, before the request joins a batch (ingest-input.ts): `raw` no
//     larger than MUSTER_SIGNAL_RAW_LIMIT, nested no deeper than MAX_RAW_DEPTH; the idempotency key.
//  2. One query for the batch finds each request's definition with its entity types and filters,
//     and the instance already stored under its key (a retry, answered with that instance).
//  3. In process: entities extracted (RE2, linear in the document), the fingerprint computed
//     (fingerprint.ts), filters compiled.
//  4. One transaction (store.ts): the locks of the fingerprints and the entities in one statement;
//     every filter evaluated for every instance in one more (decide.ts; an expression runs over the
//     batch's rows as they will be stored); the cases the undecided instances open (openCases); the
//     instances with their links and outcomes in one more.
//  5. The answers built from what was stored, with the definitions, entities and cases they name read
//     once for the batch (reader.ts readStored; a retry's from the stored instance), while the next
//     batch writes; on the embedded database, whose one connection runs one thing at a time, at the
//     end of the batch's own transaction.
//
// A request that fails on its own (unknown definition, a filter that does not compile) fails alone. A key
// taken meanwhile or a deadlock runs the batch once more; any other failure of the transaction
// ingests each request of the batch alone, so that no request fails for another.
import { randomUUID } from 'node:crypto';
import { KeyedBatcher, type Settled } from '../../lib/batcher.ts';
import { type Executor, onEmbedded } from '../../db/connection.ts';
import { pgError } from '../../db/errors.ts';
import { countIngested } from '../../lib/telemetry/metrics.ts';
import type { Ctx } from '../../server/context.ts';
import { errors, invalid } from '../../server/errors.ts';
import { openCases } from '../case/flows.ts';
import { decide, liveFilters, matcherOf, type CaseSource, type Pending } from './decide.ts';
import { lookupDefinitions, textOf, variantOf, type Definition } from './definitions.ts';
import { extractEntities, fingerprintOf, type Found } from './fingerprint.ts';
import { checkRaw, idempotencyKeyOf, type IngestBody } from './ingest-input.ts';
import { readInstances, readStored, type SignalInstanceReadT, type StoredInstance } from './reader.ts';
import { batchRows, entityIdsOf, insertInstances, KeyTaken, lockAndFindEntities, type NewInstance } from './store.ts';

export type { IngestBody } from './ingest-input.ts';

interface Request {
  ctx: Ctx;
  body: IngestBody;
  idempotencyKey: string | null;
  rawText: string;
}

type Answer = SignalInstanceReadT;

// One batch holds one caller's requests (one organization, user and role: one context for all of
// them), and a caller has one batch at a time: a second would queue on the first's locks, while the
// next batch grows meanwhile.
const batches = new KeyedBatcher<Request, Answer>(ingestBatch, { maxBatch: 100, maxInFlight: 1 });

/** Ingests one instance and answers with its read object (the stored one, for a retry). */
export async function ingestInstance(ctx: Ctx, body: IngestBody, idempotencyHeader?: unknown): Promise<Answer> {
  const rawText = checkRaw(ctx, body.raw);
  const key = idempotencyKeyOf(idempotencyHeader, body.raw) ?? null;
  return batches.submit(`${ctx.organization.id}:${ctx.user.id}:${ctx.role}`, { ctx, body, idempotencyKey: key, rawText });
}

async function ingestBatch(requests: Request[], again = false): Promise<Settled<Answer>[]> {
  try {
    return await ingestTogether(requests);
  } catch (error) {
    // A key taken meanwhile (the batch then finds the instance stored under it), or a deadlock with
    // another node's batch: once more.
    if (!again && (error instanceof KeyTaken || pgError(error)?.code === '40P01')) return ingestBatch(requests, true);
    if (requests.length === 1) return [{ ok: false, error }];
    // No request fails for another: each alone.
    const out: Settled<Answer>[] = [];
    for (const r of requests) out.push(...(await ingestBatch([r])));
    return out;
  }
}

type Prepared = Pending & NewInstance & { n: number };

/** The request's definition, when it names one that is enabled (else the error it fails with). */
function definitionOf(request: Request, def: Definition | null, projectFound: boolean): Definition {
  const raw = request.body.raw;
  if (!def) {
    if (!projectFound) throw invalid(['project'], 'Project not found.', 'value_error.not_found');
    throw errors.notFoundWith(`No signal definition found. Id: ${textOf(raw.externalId) ?? textOf(raw.id) ?? 'None'} Variant: ${variantOf(raw) ?? 'None'}`);
  }
  if (!def.enabled) throw errors.badRequest(`Signal definition not enabled. SignalName: ${def.name}`);
  return def;
}

/** The instance a request stores, its entities found. */
function prepare(request: Request, n: number, def: Definition, found: Found[]): Prepared {
  const at = request.body.created_at ? new Date(request.body.created_at) : new Date();
  const filters = liveFilters(def, at);
  // Compiled before the transaction: an expression saved before it could be checked fails here, not half-way.
  for (const f of filters) matcherOf(f);
  return {
    n,
    id: randomUUID(),
    projectId: def.project_id,
    signalId: def.id,
    rawText: request.rawText,
    fingerprint: fingerprintOf(def.id, found),
    key: request.idempotencyKey,
    at,
    found,
    lock: filters.some((f) => f.action === 'deduplicate'),
    def,
    filters,
  };
}

async function ingestTogether(requests: Request[]): Promise<Settled<Answer>[]> {
  const ctx = requests[0].ctx;
  const lookups = await lookupDefinitions(
    ctx,
    requests.map((r) => ({ body: r.body, key: r.idempotencyKey })),
  );
  const ids: (string | undefined)[] = new Array(requests.length);
  const failed = new Map<number, unknown>();
  const checked: { n: number; def: Definition }[] = [];
  for (const [n, request] of requests.entries()) {
    const { known, definition, projectFound } = lookups[n];
    if (known) {
      ids[n] = known;
      continue;
    }
    try {
      checked.push({ n, def: definitionOf(request, definition, projectFound) });
    } catch (error) {
      failed.set(n, error);
    }
  }
  // Types saved with a pattern RE2 refuses find nothing; said once per batch and type.
  const refused = new Map<number, { entity_type: string; reason: string }>();
  // Requests with one key: the first that can be ingested is, the others answer with its instance.
  const leaders = new Map<string, number>();
  const followers = new Map<number, number>();
  const prepared: Prepared[] = [];
  for (const { n, def } of checked) {
    const key = requests[n].idempotencyKey;
    const leader = key === null ? undefined : leaders.get(key);
    if (leader !== undefined) {
      followers.set(n, leader);
      continue;
    }
    try {
      const found = extractEntities(def, requests[n].body.raw, ({ type, reason }) => {
        const t = type as Definition['entity_types'][number];
        refused.set(t.id, { entity_type: t.name, reason });
      });
      prepared.push(prepare(requests[n], n, def, found));
      if (key !== null) leaders.set(key, n);
    } catch (error) {
      failed.set(n, error);
    }
  }

  for (const [id, r] of refused) ctx.log?.warn({ entity_type_id: id, ...r }, 'entity type skipped: its regular expression cannot run on RE2');

  // What this batch stored, for the answers.
  const made: StoredInstance[] = [];
  // Retries answer with the instances stored earlier.
  const earlier = () => {
    const fresh = new Set(made.map((m) => m.id));
    return [...new Set(ids.filter((id): id is string => id !== undefined && !fresh.has(id)))];
  };
  const readAnswers = (db: Executor) =>
    Promise.all([readStored(ctx, db, made), readInstances(ctx, db, earlier())]).then(
      ([stored, items]) => new Map([...stored, ...items.map((item) => [item.id, item] as const)]),
    );
  let read: ReturnType<typeof readAnswers> | undefined;
  if (prepared.length > 0) {
    await ctx.db.transaction(async (tx) => {
      const entityIds = await lockAndFindEntities(tx, ctx, prepared);
      const decisions = await decide(tx, prepared, (items, withRaw) => batchRows(ctx, items, entityIds, undefined, withRaw));
      const opening = prepared.filter((p) => decisions.get(p.id)!.filterAction === null && p.def.create_case);
      const caseIds = await openCases(
        tx,
        ctx,
        opening.map((p) => ({
          projectId: p.def.project_id,
          title: p.def.name,
          // A case's description may not be empty once anyone edits it; a signal may have none.
          description: p.def.description?.trim() ? p.def.description : `Opened by the signal ${p.def.name}.`,
          typeId: p.def.case_type_id,
          priorityId: p.def.case_priority_id,
        })),
      );
      const opened = new Map(opening.map((p, i) => [p.id, caseIds[i]]));
      const caseOf = (p: Pending): number | null => opened.get(p.id) ?? caseFrom(decisions.get(p.id)!.source);
      const caseFrom = (source: CaseSource | null): number | null => (source === null ? null : 'of' in source ? caseOf(source.of) : source.caseId);
      for (const p of prepared) {
        const d = decisions.get(p.id)!;
        made.push({
          id: p.id,
          at: p.at,
          raw: requests[p.n].body.raw,
          fingerprint: p.fingerprint,
          filterAction: d.filterAction,
          monitor: d.monitor.length ? d.monitor.map(({ source, ...hit }) => ({ ...hit, case_id: caseFrom(source) })) : null,
          caseId: caseOf(p),
          signalId: p.signalId,
          entityIds: entityIdsOf(p, entityIds),
        });
        ids[p.n] = p.id;
      }
      await insertInstances(tx, ctx, prepared, entityIds, new Map(made.map((m) => [m.id, m])));
      // On the embedded database each statement outside the transaction would wait its turn behind
      // the next batch's whole write: the answers are read here, before giving the connection up.
      if (onEmbedded(tx)) {
        const answers = await readAnswers(tx);
        read = Promise.resolve(answers);
      }
    });
    countIngested(made.map((m) => m.filterAction));
  }
  for (const [n, leader] of followers) {
    if (failed.has(leader)) failed.set(n, failed.get(leader));
    else ids[n] = ids[leader];
  }

  // Read after the batch gives up its turn: the next batch writes while this one reads. What this
  // batch stored is answered from what it stored; retries with the stored instances.
  const answers = read ?? readAnswers(ctx.db);
  return requests.map((_, n) => {
    if (failed.has(n)) return { ok: false, error: failed.get(n) };
    return {
      ok: true,
      value: answers.then((items) => {
        const item = ids[n] === undefined ? undefined : items.get(ids[n]!);
        if (!item) throw errors.notFoundWith('The signal instance stored under this idempotency key no longer exists.');
        return item;
      }),
    };
  });
}
