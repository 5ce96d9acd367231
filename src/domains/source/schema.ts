import { Type, type TObject, type TProperties, type TSchema } from '@sinclair/typebox';
import { DateTime, Id, Nullable, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { AlertCreate, AlertRead } from '../alert/schema.ts';
import { ProjectRead } from '../project/schema.ts';
import { TagCreate, TagRead } from '../tag/schema.ts';
import { ServiceRead } from '../service/schema.ts';
import { SOURCE_METADATA } from './metadata.ts';
import { IncidentRead } from '../incident/schema.ts';

const queryMinimal = { id: Id(), name: Type.String(), description: Type.String() };
export const QueryReadMinimal = Type.Object({ ...queryMinimal, description: Nullable(Type.String()) }, { title: 'QueryReadMinimal' });

/** Incidents do not point at sources (no link exists): the list is always empty, and ignored in bodies. */
const IncidentRef = Type.Object({}, { additionalProperties: true });

const list = <T extends TObject>(item: T) => Type.Optional(Type.Array(item, { default: [] }));
/** The five metadata fields, each the kind's read shape wrapped for a body or a response. */
const metadata = (wrap: (read: TObject) => TSchema) =>
  Object.fromEntries(Object.entries(SOURCE_METADATA).map(([field, m]) => [field, wrap(m.read)])) as TProperties;

const fields = {
  name: Type.Optional(Type.String()),
  description: Opt(Type.String()),
  documentation: Opt(Type.String()),
  external_id: Opt(Type.String()),
  source_schema: Opt(Type.String()),
  aggregated: Type.Optional(Nullable(Type.Boolean({ default: false }))),
  cost: Type.Optional(Type.Number()),
  delay: Opt(Type.Integer()),
  retention: Opt(Type.Integer()),
  size: Opt(Type.Integer()),
  // 1..101 inclusive, as the service summary says (the contract's bounds are exclusive).
  sampling_rate: Opt(
    Type.Integer({ minimum: 1, maximum: 101, description: 'Rate at which data is sampled (as a percentage) 100% meaning all data is captured.' }),
  ),
  data_last_loaded_at: Opt(DateTime()),
  links: Type.Optional(Type.Array(Type.Unknown(), { default: [] })),
};

// Records named in a body: by id or name, their other fields as the contract has them (not null
// where a read may show null) and ignored.
const bodyRefs = {
  project: RefShape(ProjectRead),
  owner: Opt(RefShape(ServiceRead)),
  ...metadata((s) => Type.Optional(RefShape(s))),
  tags: list(RefShape(TagCreate)),
  // Alerts named here (by id or name) get this source; on update, the ones left out lose it.
  alerts: list(RefShape(AlertCreate)),
  // Read-only: queries name their source, and incidents do not yet.
  queries: list(RefShape(Type.Object(queryMinimal))),
  incidents: list(IncidentRef),
};

/** A source named in another body (a query's). */
export const SourceRef = RefShape(Type.Object({ id: Id(), ...fields, ...bodyRefs }));

export const SourceCreate = Type.Object({ ...fields, ...bodyRefs }, { title: 'SourceCreate', additionalProperties: false });
export const SourceUpdate = Type.Object({ id: Type.Optional(Id()), ...fields, ...bodyRefs }, { title: 'SourceUpdate', additionalProperties: false });
export const SourceRead = Type.Object(
  {
    id: Id(),
    ...fields,
    name: Type.String(),
    aggregated: Nullable(Type.Boolean({ default: false })),
    cost: Nullable(Type.Number()),
    links: Type.Array(Type.Unknown(), { default: [] }),
    project: ProjectRead,
    owner: Opt(ServiceRead),
    ...metadata((s) => Opt(s)),
    tags: Type.Array(TagRead, { default: [] }),
    alerts: Type.Array(AlertRead, { default: [] }),
    queries: Type.Array(QueryReadMinimal, { default: [] }),
    incidents: Type.Array(IncidentRead, { default: [] }),
  },
  { title: 'SourceRead' },
);
export const SourcePagination = Pagination(SourceRead, 'SourcePagination');
