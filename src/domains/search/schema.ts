// The global search's query and answer (BEHAVIOR §10.3): `type[]` names the kinds of record to
// search, `q` what to look for; the answer holds every kind's key, each with its read objects:
// incidents and cases in their minimal read (what the web UI's search results show of them), the
// other kinds in full.
import { Type, type Static } from '@sinclair/typebox';
import { ListQuery } from '../../server/shapes.ts';
import { CaseReadMinimal } from '../case/schema.ts';
import { DefinitionRead } from '../definition/schema.ts';
import { DocumentRead } from '../document/schema.ts';
import { IncidentReadMinimal } from '../incident/schema.ts';
import { IndividualContactRead } from '../individual/schema.ts';
import { QueryRead } from '../query/schema.ts';
import { StringEnum } from '../search_filter/schema.ts';
import { ServiceRead } from '../service/schema.ts';
import { SourceRead } from '../source/schema.ts';
import { TagRead } from '../tag/schema.ts';
import { TaskRead } from '../task/schema.ts';
import { TeamContactRead } from '../team/schema.ts';
import { TermRead } from '../term/schema.ts';

export const SEARCH_TYPES = [
  'Definition',
  'Document',
  'Incident',
  'IncidentPriority',
  'IncidentType',
  'IndividualContact',
  'Plugin',
  'Query',
  'SearchFilter',
  'Case',
  'Service',
  'Source',
  'Tag',
  'Task',
  'TeamContact',
  'Term',
] as const;
export type SearchType = (typeof SEARCH_TYPES)[number];

// page, itemsPerPage, filter and sortBy are accepted (and checked) as on every list, and ignored, as
// Dispatch ignores them here. `q` is required: Dispatch answers a search without one with a broken body.
export const SearchQuery = Type.Object({
  ...ListQuery.properties,
  'type[]': Type.Array(StringEnum(SEARCH_TYPES, 'SearchTypes')),
  q: Type.String({ minLength: 1, pattern: '^[ -~]+$' }),
});
export type SearchQueryT = Static<typeof SearchQuery>;

export const SearchResults = Type.Object(
  {
    documents: Type.Array(DocumentRead),
    incidents: Type.Array(IncidentReadMinimal),
    tasks: Type.Array(TaskRead),
    tags: Type.Array(TagRead),
    terms: Type.Array(TermRead),
    definitions: Type.Array(DefinitionRead),
    sources: Type.Array(SourceRead),
    queries: Type.Array(QueryRead),
    teams: Type.Array(TeamContactRead),
    individuals: Type.Array(IndividualContactRead),
    services: Type.Array(ServiceRead),
    cases: Type.Array(CaseReadMinimal),
  },
  { title: 'ContentResponse' },
);
export type ResultKey = keyof Static<typeof SearchResults>;

export const SearchResponse = Type.Object({ query: Type.String(), results: SearchResults }, { title: 'SearchResponse' });
export type SearchResponseT = Static<typeof SearchResponse>;
