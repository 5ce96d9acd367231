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

/** `(SELECT ...) AS <table>` for each linked table, on a record aliased `r` whose id column is `owner`. */
export function folded(tables: string[], owner: 'incident_id' | 'case_id'): string {
  return tables.map((t) => `(SELECT jsonb_build_object(${FIELDS[t]}) FROM {s}."${t}" x WHERE x.${owner} = r.id ORDER BY x.id LIMIT 1) AS "${t}"`).join(', ');
}

/** Rows of a linked table that no record's value carries (a second ticket, a task's ticket, ...). */
export function unfoldedCount(table: string, owners: ('incident_id' | 'case_id')[]): string {
  const firsts = owners.map((o) => `SELECT min(id) FROM {s}."${table}" WHERE ${o} IS NOT NULL GROUP BY ${o}`).join(' UNION ');
  return `SELECT count(*)::int AS n FROM {s}."${table}" WHERE id NOT IN (${firsts})`;
}
