// The global search's kinds of record and its answer (GET /{organization}/search, BEHAVIOR §10.3):
// `type[]` names the kinds asked for, the answer has one list per kind under `results`, each of full
// read objects ranked by relevance. Grouped here for the page: one group per kind with hits, each hit
// with the words to show and where it leads. Pure, so tests pin the grouping and the links.

export interface SearchKind {
  /** The API's `type[]` value. */
  type: string;
  /** The answer's key under `results`. */
  key: string;
  /** The group's heading. */
  label: string;
}

/** The kinds the answer carries, in the order the page shows them (the API accepts a few more it never fills). */
export const SEARCH_KINDS: SearchKind[] = [
  { type: 'Incident', key: 'incidents', label: 'Incidents' },
  { type: 'Case', key: 'cases', label: 'Cases' },
  { type: 'Task', key: 'tasks', label: 'Tasks' },
  { type: 'Document', key: 'documents', label: 'Documents' },
  { type: 'Tag', key: 'tags', label: 'Tags' },
  { type: 'Term', key: 'terms', label: 'Terms' },
  { type: 'Definition', key: 'definitions', label: 'Definitions' },
  { type: 'Query', key: 'queries', label: 'Queries' },
  { type: 'Source', key: 'sources', label: 'Sources' },
  { type: 'Service', key: 'services', label: 'Services' },
  { type: 'TeamContact', key: 'teams', label: 'Teams' },
  { type: 'IndividualContact', key: 'individuals', label: 'People' },
];

/** The settings section (URL segment under /{organization}/settings) where each other kind is kept. */
const SETTINGS_SECTION: Record<string, string> = {
  documents: 'documents',
  tags: 'tags',
  terms: 'terms',
  definitions: 'definitions',
  queries: 'queries',
  sources: 'sources',
  services: 'services',
  teams: 'teams',
  individuals: 'individuals',
};

export interface SearchAnswer {
  query: string;
  results: Record<string, Record<string, unknown>[] | undefined>;
}

export interface Hit {
  /** Unique on the page: `incidents:12`. */
  id: string;
  title: string;
  /** A second line: the record's name, description or email, when it says more than the title. */
  detail?: string;
  /** Where the hit leads inside the UI; none when the record has no page (shown as plain text). */
  href?: string;
  /** An incident's or a case's status and when it was reported: which of two alike titles is the one sought. */
  status?: string;
  reportedAt?: string;
}

export interface HitGroup {
  kind: SearchKind;
  hits: Hit[];
}

const text = (value: unknown) => (typeof value === 'string' && value.trim() !== '' ? value : undefined);

const firstLine = (value: string | undefined, max = 160) => {
  if (!value) return undefined;
  const line = value.split('\n')[0];
  return line.length > max ? `${line.slice(0, max - 1)}…` : line;
};

/** One record of `kind` as a hit: what it is called and where it leads. */
export function hitOf(organization: string, kind: SearchKind, record: Record<string, unknown>): Hit {
  const org = `/${encodeURIComponent(organization)}`;
  const name = text(record.name);
  const title = text(record.title) ?? name ?? text(record.text) ?? firstLine(text(record.description)) ?? text(record.email) ?? `#${record.id}`;
  const id = `${kind.key}:${record.id}`;
  switch (kind.key) {
    case 'incidents':
    case 'cases':
      return {
        id,
        title,
        detail: name,
        href: name ? `${org}/${kind.key}/${encodeURIComponent(name)}` : undefined,
        status: text(record.status),
        reportedAt: text(record.reported_at),
      };
    case 'tasks': {
      // A task lives on its incident's page.
      const incident = record.incident as { name?: string; title?: string } | undefined;
      const incidentName = text(incident?.name);
      return {
        id,
        title,
        detail: incidentName ? `Task of ${incidentName}${incident?.title ? `: ${incident.title}` : ''}` : undefined,
        href: incidentName ? `${org}/incidents/${encodeURIComponent(incidentName)}` : undefined,
      };
    }
    default: {
      const detail = firstLine(text(record.email) ?? (title === text(record.description) ? undefined : text(record.description)));
      const section = SETTINGS_SECTION[kind.key];
      return { id, title, detail, href: section ? `${org}/settings/${section}` : undefined };
    }
  }
}

/** The answer's hits per kind asked for, kinds without a hit left out, in SEARCH_KINDS's order. */
export function groupResults(organization: string, answer: SearchAnswer | undefined, types: string[]): HitGroup[] {
  if (!answer) return [];
  return SEARCH_KINDS.filter((k) => types.includes(k.type))
    .map((kind) => ({ kind, hits: (answer.results[kind.key] ?? []).map((record) => hitOf(organization, kind, record)) }))
    .filter((g) => g.hits.length > 0);
}

/** How many hits each kind asked for has (0 included), for the toggles. */
export function countsOf(answer: SearchAnswer | undefined): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const kind of SEARCH_KINDS) counts[kind.type] = answer?.results[kind.key]?.length ?? 0;
  return counts;
}

/** The kinds the URL turns on (`?type=Incident&type=Case`); all of them when it names none it knows. */
export function typesFromParams(params: URLSearchParams): string[] {
  const known = params.getAll('type').filter((t) => SEARCH_KINDS.some((k) => k.type === t));
  return known.length ? SEARCH_KINDS.map((k) => k.type).filter((t) => known.includes(t)) : SEARCH_KINDS.map((k) => k.type);
}

/** The API takes printable ASCII only in `q`; why a query cannot be searched, else null. */
export function queryProblem(q: string): string | null {
  if (q.trim() === '') return 'empty';
  return /^[ -~]+$/.test(q) ? null : 'ascii';
}
