import { Type, type TObject, type TSchema } from '@sinclair/typebox';
import { Defaulted, Id, NameStr, Nullable, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { CostModelRead } from '../cost_model/schema.ts';
import { ProjectRead } from '../project/schema.ts';

const KeyValue = Type.Object({ key: Type.String(), value: Type.String() }, { title: 'KeyValue', additionalProperties: false });

/** A plugin's settings for records of a type: stored as sent, read by that plugin. */
export const PluginMetadata = Type.Object(
  { metadata: Defaulted(Type.Array(KeyValue, { default: [] })), slug: Type.String() },
  { title: 'PluginMetadata', additionalProperties: false },
);

/** What incident types and case types have in common. */
export const typeFields = {
  name: NameStr(),
  description: Opt(Type.String()),
  /** The visibility records of this type start with: `Open` or `Restricted`. */
  visibility: Opt(Type.String()),
  default: Defaulted(Type.Boolean({ default: false })),
  enabled: Type.Optional(Type.Boolean()),
  exclude_from_metrics: Defaulted(Type.Boolean({ default: false })),
  plugin_metadata: Defaulted(Type.Array(PluginMetadata, { default: [] })),
};

const documentFields = {
  id: Id(),
  name: NameStr(),
  description: Opt(Type.String()),
  resource_id: Opt(Type.String()),
  resource_type: Opt(Type.String()),
  weblink: Type.String(),
};
/**
 * A document named in a type's body (the contract's small `Document`), by id or name; null clears
 * it. Dispatch's models accept null here though its OpenAPI omits `nullable`, and its web UI sends
 * read objects back with null in every unset reference.
 */
export const DocumentRef = Opt(RefShape(Type.Object(documentFields, { title: 'Document' })));
/** A document nested in a type's read; a document may have no weblink yet. */
export const DocumentNested = Opt(Type.Object({ ...documentFields, weblink: Nullable(Type.String()) }, { title: 'Document' }));

/** An incident type nested in other records (the contract's small `IncidentType`). */
export const IncidentTypeSummary = Type.Object(
  { id: Id(), name: NameStr(), description: Opt(Type.String()), visibility: Opt(Type.String()) },
  { title: 'IncidentType' },
);

export const TEMPLATE_DOCUMENTS = [
  'incident_template_document',
  'executive_template_document',
  'review_template_document',
  'tracking_template_document',
] as const;

/** The same shape under each template document field. */
const documents = <T extends TSchema>(shape: T) =>
  Object.fromEntries(TEMPLATE_DOCUMENTS.map((f) => [f, shape])) as Record<(typeof TEMPLATE_DOCUMENTS)[number], T>;

/**
 * Beyond 0.1.0 (current Dispatch): the cost model a type's body names, by id or name; null clears it.
 * Only the type's own bodies and reads carry it: types nested in incidents and cases keep the
 * contract's shape.
 */
export const CostModelRef = Opt(RefShape(Type.Object({ id: Id(), name: NameStr() }, { title: 'CostModelRead' })));

/** A type's own read: the contract's shape and its cost model. */
export const withCostModel = <T extends TObject>(read: T) => Type.Object({ ...read.properties, cost_model: Opt(CostModelRead) }, { title: read.title });

export const IncidentTypeCreate = Type.Object(
  { ...typeFields, ...documents(DocumentRef), cost_model: CostModelRef, project: Type.Optional(RefShape(ProjectRead)) },
  { title: 'IncidentTypeCreate', additionalProperties: false },
);
export const IncidentTypeUpdate = Type.Object(
  { id: Type.Optional(Id()), ...typeFields, ...documents(DocumentRef), cost_model: CostModelRef, project: Type.Optional(RefShape(ProjectRead)) },
  { title: 'IncidentTypeUpdate', additionalProperties: false },
);
export const IncidentTypeRead = Type.Object({ id: Id(), ...typeFields, ...documents(DocumentNested), project: ProjectRead }, { title: 'IncidentTypeRead' });
export const IncidentTypeWithCostModel = withCostModel(IncidentTypeRead);
export const IncidentTypePagination = Pagination(IncidentTypeWithCostModel, 'IncidentTypePagination');
