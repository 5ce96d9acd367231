// The global search (BEHAVIOR §10.3): one query over the search vectors of the requested kinds of
// record, within the caller's organization, ranked by relevance as the lists rank a `q` (§2.3: the
// same parser, ts_rank_cd); then each kind's hits read by the kind's own reader, in the order of
// their rank. Restricted incidents and cases, and tasks of incidents, the caller may not see are left
// out in the query itself, so that they take no place among a kind's hits. The same statement builds
// the read objects of the incidents and cases it finds (crud/reader.ts objectWithin), so that the
// usual search is one round trip; the hits of the other kinds, rare, are read by their readers.
// Incidents and cases are ranked in two tiers: first those whose name or title holds the words (a
// small index, few rows), then those that hold them elsewhere (the description); the second tier is
// read only when the first holds fewer than a kind's bound, so that a search of common words reads
// and ranks a few dozen rows instead of every row holding them. The first tier is found by the
// beginnings of the names' and titles' words (db/columns.ts wordPrefixes): a typed `payme` is one
// exact lookup there, where a prefix lookup of the words (`payme:*`) costs several times more.
// The query is built once per set of kinds and kind of viewer and prepared: the caller and `q` are
// its parameters.
import { sql, type SQL } from 'drizzle-orm';
import { alias, type PgColumn, type PgTable } from 'drizzle-orm/pg-core';
import type { TSchema } from '@sinclair/typebox';
import { column, type GroupDef, type Reader } from '../../crud/group.ts';
import { groupReader, objectWithin } from '../../crud/reader.ts';
import { statementOf, type Statement } from '../../db/statements.ts';
import { toPrefixQuery, toTsQuery } from '../../list/search.ts';
import { atLeast, type Ctx } from '../../server/context.ts';
import { paramsOf, PLACEHOLDERS, type ViewerTerms } from '../../server/viewer.ts';
import { ruleOf } from '../../server/visibility.ts';
import { leadingWords, wordPrefixes } from '../../db/columns.ts';
import { caseMinimalReader } from '../case/reader.ts';
import { incidentMinimalReader } from '../incident/reader.ts';
import { CASE } from '../case/kind.ts';
import { definitionGroup } from '../definition/group.ts';
import { DefinitionRead } from '../definition/schema.ts';
import { definition } from '../definition/table.ts';
import { documentGroup } from '../document/group.ts';
import { DocumentRead } from '../document/schema.ts';
import { document } from '../document/table.ts';
import { INCIDENT } from '../incident/kind.ts';
import { individualGroup } from '../individual/group.ts';
import { IndividualContactRead } from '../individual/schema.ts';
import { individualContact } from '../individual/table.ts';
import { caseTable, incident } from '../lifecycle/table.ts';
import { recordsVisibleTo, recordVisibleTo } from '../lifecycle/visibility.ts';
import { queryGroup } from '../query/group.ts';
import { QueryRead } from '../query/schema.ts';
import { query } from '../query/table.ts';
import { serviceGroup } from '../service/group.ts';
import { ServiceRead } from '../service/schema.ts';
import { service } from '../service/table.ts';
import { sourceGroup } from '../source/group.ts';
import { SourceRead } from '../source/schema.ts';
import { source } from '../source/table.ts';
import { tagGroup } from '../tag/group.ts';
import { TagRead } from '../tag/schema.ts';
import { tag } from '../tag/table.ts';
import { taskReader } from '../task/reader.ts';
import { task } from '../task/table.ts';
import { teamGroup } from '../team/group.ts';
import { TeamContactRead } from '../team/schema.ts';
import { teamContact } from '../team/table.ts';
import { termGroup } from '../term/group.ts';
import { TermRead } from '../term/schema.ts';
import { term } from '../term/table.ts';
import type { ResultKey, SearchQueryT, SearchResponseT, SearchType } from './schema.ts';

/**
 * The most incidents, and the most cases, a search returns: the best-ranked, a page of the web UI's
 * result tables (10 rows). Each is a read object of about 3 KB (its people, priority, type...): past
 * a page, reading and writing them cost more than the search itself (50 of each made a 300 KB
 * answer). The kind's list with the same `q` pages through every match.
 */
export const SEARCH_LIMIT_PER_TYPE = 10;

/**
 * The most hits of each other kind (documents, tasks, tags...), whose read objects are small.
 * Without a bound a short word would read thousands of records in full.
 */
export const SEARCH_LIMIT_SMALL_KINDS = 50;

/**
 * The most rows of one kind (and tier) ranked by relevance: the newest of those holding the words.
 * A word found in most records (`the`, a region every title names) would otherwise have every one of
 * them read and ranked, seconds over 100,000 records; below the bound the ranking is exact.
 */
export const SEARCH_CANDIDATES = 500;

/** The columns a searched table has: its id, its organization and its search vector. */
type SearchedTable = PgTable & { id: PgColumn; organization_id: PgColumn; search_vector: PgColumn };

/** A table whose rows have a name and a title, ranked first when they hold the words (db/columns.ts leadingWords). */
type LeadingTable = SearchedTable & { name: PgColumn; title: PgColumn };

interface Searched {
  key: ResultKey;
  table: SearchedTable;
  /** The most hits answered. */
  bound: number;
  /** Which of the organization's rows the viewer (given as terms) may see, when not all of them. */
  visible?: (terms: ViewerTerms) => SQL;
  /** The words that rank a row in the first tier (its name and title), where the kind has them. */
  leading?: SQL;
  /** The reader whose objects (its def, as its shape) the hits are answered in. */
  reader: () => Reader<unknown>;
  /**
   * The hits' objects are built by the search's statement itself (incidents and cases, found by
   * nearly every search): a round trip less per kind. Not the other kinds: PostgreSQL sets up every
   * part of a statement's plan on every run, and their objects' parts (a task nests its incident and
   * people) cost every search more than a statement of their own costs the few that find them.
   * Each object builds its own project, type, priority and severity: building each of those once
   * for all the hits cost no less, a page of hits naming nearly as many of them as it has hits; and
   * a case's costs come from its hook's grouped read, which costs less than their inputs read by
   * subqueries within the objects.
   */
  within?: true;
}

const leadingOf = (t: LeadingTable) => leadingWords(t.name, t.title);

/** A plain record group's kind: read through the group's reader as its read shape. */
const plainKind = (key: ResultKey, table: SearchedTable, group: GroupDef, shape: TSchema): Searched => ({
  key,
  table,
  bound: SEARCH_LIMIT_SMALL_KINDS,
  reader: () => groupReader(group, shape),
});

// Plugin, IncidentPriority, IncidentType and SearchFilter are accepted in `type[]` but not searched:
// Dispatch 0.1.0 drops their matches from its answer, which has no key for them.
const SEARCHED: Partial<Record<SearchType, Searched>> = {
  // Documents of records (reviews among them) only where the caller sees the record.
  Document: { ...plainKind('documents', document, documentGroup, DocumentRead), visible: (terms) => ruleOf(document)!(terms) },
  // Incidents and cases in their minimal read: what the web UI's search results show of them.
  Incident: {
    key: 'incidents',
    table: incident,
    bound: SEARCH_LIMIT_PER_TYPE,
    visible: (terms) => recordsVisibleTo(terms, INCIDENT),
    leading: leadingOf(incident),
    reader: incidentMinimalReader,
    within: true,
  },
  Task: {
    key: 'tasks',
    table: task,
    bound: SEARCH_LIMIT_SMALL_KINDS,
    visible: (terms) => recordVisibleTo(terms, INCIDENT, task.incident_id),
    reader: taskReader,
  },
  Tag: plainKind('tags', tag, tagGroup, TagRead),
  Term: plainKind('terms', term, termGroup, TermRead),
  Definition: plainKind('definitions', definition, definitionGroup, DefinitionRead),
  Source: plainKind('sources', source, sourceGroup, SourceRead),
  Query: plainKind('queries', query, queryGroup, QueryRead),
  TeamContact: plainKind('teams', teamContact, teamGroup, TeamContactRead),
  IndividualContact: plainKind('individuals', individualContact, individualGroup, IndividualContactRead),
  Service: plainKind('services', service, serviceGroup, ServiceRead),
  Case: {
    key: 'cases',
    table: caseTable,
    bound: SEARCH_LIMIT_PER_TYPE,
    visible: (terms) => recordsVisibleTo(terms, CASE),
    leading: leadingOf(caseTable),
    reader: caseMinimalReader,
    within: true,
  },
};

/** The searched kinds in one order, so that a set of kinds has one statement whatever order `type[]` names them in. */
const ORDER = (Object.keys(SEARCHED) as SearchType[]).filter((t) => SEARCHED[t]);

const emptyResults = (): Record<ResultKey, unknown[]> => ({
  documents: [],
  incidents: [],
  tasks: [],
  tags: [],
  terms: [],
  definitions: [],
  sources: [],
  queries: [],
  teams: [],
  individuals: [],
  services: [],
  cases: [],
});

/** The tsquery of `q`, computed once per run (an InitPlan), not once per row ranked. */
const TSQUERY = sql`(SELECT to_tsquery('simple', ${sql.placeholder('tsquery')}))`;
/** `q` over the words' beginnings (list/search.ts toPrefixQuery). */
const PREFIXES = sql`(SELECT to_tsquery('simple', ${sql.placeholder('prefixes')}))`;

/**
 * How the first tier finds the names and titles holding the words: by their beginnings alone (what
 * `q` says in them is exactly what it says of the words), by their beginnings and then the words
 * (phrases, negations: the beginnings find more), or by the words alone (nothing but negations, so
 * no beginning narrows the rows down). One statement each: a parameter choosing would keep
 * PostgreSQL from its generic plan.
 */
type Finding = 'prefixes' | 'prefixes, words' | 'words';
const CANDIDATES = sql.raw(String(SEARCH_CANDIDATES));

/**
 * A kind's newest rows (at most SEARCH_CANDIDATES) among those `where` selects, the viewer's
 * organization and visibility applied: (id, v), v the row's search vector. The LIMIT keeps the
 * checks made on them afterwards (the whole vector, the rank) out of the scan that finds them, so
 * that the planner cannot add the kind's big index to a scan of its small one.
 */
function candidates(kind: Searched, terms: ViewerTerms, where: SQL): SQL {
  const t = kind.table;
  const visible = kind.visible ? sql` AND ${kind.visible(terms)}` : sql``;
  return sql`SELECT ${t.id} AS id, ${t.search_vector} AS v FROM ${t} WHERE ${t.organization_id} = ${PLACEHOLDERS.organization}${visible} AND ${where}
    ORDER BY ${t.id} DESC LIMIT ${CANDIDATES}`;
}

/** The `bound` best-ranked of these candidates whose whole vector holds the words (and that pass `also`): (id, rank). */
const ranked = (found: SQL, bound: SQL, also: SQL = sql``) =>
  sql`SELECT id, ts_rank_cd(v, ${TSQUERY})::float8 AS rank FROM (${found}) found WHERE v @@ ${TSQUERY}${also} ORDER BY rank DESC, id LIMIT ${bound}`;

/** One kind's best hits for a viewer (given as terms): (key, id, tier, rank). */
function hitsOf(kind: Searched, terms: ViewerTerms, finding: Finding): SQL {
  const t = kind.table;
  const bound = sql.raw(String(kind.bound));
  const matching = sql`${t.search_vector} @@ ${TSQUERY}`;
  if (!kind.leading) return sql`(SELECT ${kind.key}::text AS key, id, 1 AS tier, rank FROM (${ranked(candidates(kind, terms, matching), bound)}) hits)`;
  // First tier: rows whose name or title holds the words, found through the index of their words'
  // beginnings (checked against the words themselves where that finds more: phrases, negations),
  // then against the whole vector (a negated word may be in the description).
  const holding = sql`${kind.leading} @@ ${TSQUERY}`;
  const beginning = sql`${wordPrefixes(kind.leading)} @@ ${PREFIXES}`;
  const found = { prefixes: beginning, 'prefixes, words': sql`${beginning} AND ${holding}`, words: holding }[finding];
  const first = ranked(candidates(kind, terms, found), bound);
  // Second tier, only while the first holds fewer than the bound (a one-time filter: not scanned
  // otherwise): the rows holding the words elsewhere, which are those the first tier left out.
  const more = sql`${matching} AND (SELECT count(*) FROM first_tier) < ${bound}`;
  const second = ranked(candidates(kind, terms, more), bound, sql` AND id NOT IN (SELECT id FROM first_tier)`);
  return sql`(WITH first_tier AS MATERIALIZED (${first})
    SELECT ${kind.key}::text AS key, id, 1 AS tier, rank FROM first_tier
    UNION ALL SELECT ${kind.key}::text, id, 2, rank FROM (${second}) second_tier
    ORDER BY tier, rank DESC, id LIMIT ${bound})`;
}

type Row = Record<string, unknown>;
/** A hit, with its read object where its kind's are built `within` the statement. */
type Hit = { key: ResultKey; id: number; doc: Row | null };

/**
 * A statement per kind of viewer, as the readers make them (crud/reader.ts): with no parameter
 * deciding which visibility rule applies, PostgreSQL keeps one generic plan of the statement
 * instead of planning it anew for every search (about a millisecond and a half each time).
 */
type Reading = 'all' | 'member';
const TERMS: Record<Reading, ViewerTerms> = { all: { ...PLACEHOLDERS, all: true }, member: { ...PLACEHOLDERS, all: false } };

/** The statement of a set of kinds for a kind of viewer, and what completes the objects it builds once they have come back. */
interface Search {
  statement: Statement<Hit>;
  complete: Map<ResultKey, (ctx: Ctx, items: Row[]) => Promise<void>>;
}

/**
 * The hits of a set of kinds (in SEARCHED's order) for a kind of viewer, every kind's best first,
 * with the objects of the kinds read `within`: built on first use. The objects are built only for
 * the hits, which the query has already checked the viewer may see.
 */
const searches = new Map<string, Search>();
function searchOf(kinds: Searched[], reading: Reading, finding: Finding): Search {
  const shape = `${reading} ${finding}: ${kinds.map((k) => k.key).join(' ')}`;
  let found = searches.get(shape);
  if (!found) {
    const union = sql.join(
      kinds.map((k) => hitsOf(k, TERMS[reading], finding)),
      sql` UNION ALL `,
    );
    const complete = new Map<ResultKey, (ctx: Ctx, items: Row[]) => Promise<void>>();
    const objects = kinds
      .filter((k) => k.within)
      .map((k) => {
        const name = `hit_${k.key}`;
        const at = alias(k.table, name);
        const object = objectWithin(k.reader(), at, TERMS[reading]);
        complete.set(k.key, (ctx, items) => object.complete(ctx.db, items, ctx));
        return sql`\n    WHEN ${sql.raw(`'${k.key}'`)} THEN (SELECT ${object.sql} FROM ${k.table} ${sql.identifier(name)} WHERE ${column(at, 'id')} = hits.id)`;
      });
    const doc = objects.length ? sql`CASE key ${sql.join(objects, sql``)} END` : sql`NULL::json`;
    const statement = statementOf<Hit>(sql`SELECT key, id, ${doc} AS doc FROM (${union}) hits ORDER BY key, tier, rank DESC, id`);
    searches.set(shape, (found = { statement, complete }));
  }
  return found;
}

/** Records of the requested kinds matching `q`, every kind's key present, each kind's best first. */
export async function search(ctx: Ctx, params: SearchQueryT): Promise<SearchResponseT> {
  const results = emptyResults();
  // The one typed boundary: each kind's objects are its reader's, of its key's read shape.
  const answer = () => ({ query: params.q, results: results as SearchResponseT['results'] });
  const asked = new Set(params['type[]']);
  const kinds = ORDER.filter((t) => asked.has(t)).map((t) => SEARCHED[t] as Searched);
  const tsquery = toTsQuery(params.q);
  if (tsquery === null || kinds.length === 0) return answer();

  const prefixes = toPrefixQuery(params.q);
  const finding: Finding = prefixes.tsquery === null ? 'words' : prefixes.exact ? 'prefixes' : 'prefixes, words';
  const { statement, complete } = searchOf(kinds, atLeast(ctx.role, 'Admin') ? 'all' : 'member', finding);
  const hits = await statement(ctx.db, { tsquery, prefixes: prefixes.tsquery, ...paramsOf(ctx) });
  const byKey = new Map<ResultKey, Hit[]>();
  for (const hit of hits) {
    const same = byKey.get(hit.key);
    if (same) same.push(hit);
    else byKey.set(hit.key, [hit]);
  }
  await Promise.all(
    kinds.map(async (k) => {
      const found = byKey.get(k.key);
      if (!found) return;
      if (k.within) {
        const items = found.map((hit) => hit.doc as Row);
        await complete.get(k.key)!(ctx, items);
        results[k.key] = items;
      } else {
        const ids = found.map((hit) => Number(hit.id));
        const byId = await k.reader()(ctx.db, ids, ctx);
        results[k.key] = ids.map((id) => byId.get(id)).filter((x) => x !== undefined);
      }
    }),
  );
  return answer();
}
