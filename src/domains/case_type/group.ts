import type { GroupDef } from '../../crud/group.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { documentTarget } from '../document/group.ts';
import { costModelRef, incidentTypeTarget, typeListFields, typeRules } from '../incident_type/group.ts';
import { serviceTarget } from '../service/group.ts';
import { CaseTypeCreate, CaseTypePagination, CaseTypeUpdate, CaseTypeWithCostModel } from './schema.ts';
import { caseType } from './table.ts';

export const caseTypeTarget: RefTarget = { table: caseType, model: 'CaseType', label: 'Case type', fields: { id: 'int', name: 'text', visibility: 'text' } };

export const caseTypeGroup: GroupDef = {
  path: 'case_types',
  tags: ['case_types'],
  idParam: 'case_type_id',
  thing: 'A case type',
  model: 'CaseType',
  tableName: 'case_type',
  table: caseType,
  shapes: { create: CaseTypeCreate, update: CaseTypeUpdate, read: CaseTypeWithCostModel, pagination: CaseTypePagination },
  fields: { ...typeListFields, conversation_target: 'text' },
  operations: ['list', 'create', 'get', 'update'],
  writePermission: 'SensitiveProjectAction',
  refs: {
    case_template_document: { column: 'case_template_document_id', target: documentTarget },
    incident_type: { column: 'incident_type_id', target: incidentTypeTarget },
    oncall_service: { column: 'oncall_service_id', target: serviceTarget },
    cost_model: costModelRef,
  },
  unique: { case_type_project_name_key: 'name' },
  oneDefault: true,
  hooks: typeRules,
};
