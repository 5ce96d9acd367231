// Dispatch keeps a record's ticket, chat conversation, storage folder and conference in tables of
// their own joined by the record's id; Muster keeps each as a JSON value on the record. These are
// the expressions that fold the first of each into the record's row, verbatim.

const RESOURCE = "'resource_id', x.resource_id, 'resource_type', x.resource_type, 'weblink', x.weblink";
const FIELDS: Record<string, string> = {
  ticket: RESOURCE,
  storage: RESOURCE,
  conference: `${RESOURCE}, 'conference_id', x.conference_id, 'conference_challenge', x.conference_challenge`,
  conversation: `'id', x.id, ${RESOURCE}, 'channel_id', x.channel_id, 'thread_id', x.thread_id`,
};

/**
 * `SELECT r.*, <one JSON value per linked table> FROM <record table> r JOIN ...`: the first of each
 * linked table's rows by id (hash joins, as Dispatch indexes none of these columns).
 */
export function withLinks(record: string, tables: string[], owner: 'incident_id' | 'case_id'): string {
  const cols = tables.map((t, i) => `CASE WHEN l${i}.id IS NULL THEN NULL ELSE jsonb_build_object(${FIELDS[t].replaceAll('x.', `l${i}.`)}) END AS "${t}"`);
  const joins = tables.map(
    (t, i) => `LEFT JOIN (SELECT DISTINCT ON (${owner}) * FROM {s}."${t}" WHERE ${owner} IS NOT NULL ORDER BY ${owner}, id) l${i} ON l${i}.${owner} = r.id`,
  );
  return `SELECT r.*, ${cols.join(', ')} FROM {s}."${record}" r ${joins.join(' ')}`;
}

/** Rows of a linked table that no record's value carries (a second ticket, a task's ticket, ...). */
export function unfoldedCount(table: string, owners: ('incident_id' | 'case_id')[]): string {
  const firsts = owners.map((o) => `SELECT min(id) FROM {s}."${table}" WHERE ${o} IS NOT NULL GROUP BY ${o}`).join(' UNION ');
  return `SELECT count(*)::int AS n FROM {s}."${table}" WHERE id NOT IN (${firsts})`;
}
