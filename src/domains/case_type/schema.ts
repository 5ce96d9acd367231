import { Type } from '@sinclair/typebox';
import { Id, NameStr, Nullable, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { ProjectRead } from '../project/schema.ts';
import { CostModelRef, DocumentNested, DocumentRef, IncidentTypeSummary, typeFields, withCostModel } from '../incident_type/schema.ts';

const serviceFields = {
  id: Id(),
  name: NameStr(),
  external_id: Type.String(),
  is_active: Type.Optional(Type.Boolean()),
  type: Opt(Type.String()),
  description: Opt(Type.String()),
};
/** The on-call service named in a case type's body (the contract's small `Service`), by id or name. */
// Services may have no name: a read object's null name comes back as "" (Ajv coerces), so no length rule here.
const ServiceRef = RefShape(Type.Object({ ...serviceFields, name: Type.String() }, { title: 'Service' }));
const ServiceNested = Opt(Type.Object({ ...serviceFields, name: Nullable(Type.String()), external_id: Nullable(Type.String()) }, { title: 'Service' }));

// Null is accepted wherever a read may hold null (see DocumentRef): read objects go back as bodies.
const fields = {
  ...typeFields,
  /** Where case conversations go when cases of this type get no dedicated channel. */
  conversation_target: Opt(Type.String()),
};
const references = {
  case_template_document: DocumentRef,
  incident_type: Opt(RefShape(IncidentTypeSummary)),
  oncall_service: Opt(ServiceRef),
  cost_model: CostModelRef,
  project: Type.Optional(RefShape(ProjectRead)),
};

export const CaseTypeCreate = Type.Object({ ...fields, ...references }, { title: 'CaseTypeCreate', additionalProperties: false });
export const CaseTypeUpdate = Type.Object({ id: Type.Optional(Id()), ...fields, ...references }, { title: 'CaseTypeUpdate', additionalProperties: false });
export const CaseTypeRead = Type.Object(
  {
    id: Id(),
    ...fields,
    case_template_document: DocumentNested,
    incident_type: Opt(IncidentTypeSummary),
    oncall_service: ServiceNested,
    project: ProjectRead,
  },
  { title: 'CaseTypeRead' },
);
export const CaseTypeWithCostModel = withCostModel(CaseTypeRead);
export const CaseTypePagination = Pagination(CaseTypeWithCostModel, 'CaseTypePagination');
