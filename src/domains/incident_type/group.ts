import type { GroupDef, Hooks } from '../../crud/group.ts';
import type { RefTarget } from '../../crud/refs.ts';
import type { Fields } from '../../list/definition.ts';
import { validationError } from '../../server/errors.ts';
import { documentTarget } from '../document/group.ts';
import { costModelReader, costModelTarget } from '../cost_model/group.ts';
import { IncidentTypeCreate, IncidentTypePagination, IncidentTypeUpdate, IncidentTypeWithCostModel, TEMPLATE_DOCUMENTS } from './schema.ts';
import { incidentType } from './table.ts';

export const incidentTypeTarget: RefTarget = {
  table: incidentType,
  model: 'IncidentType',
  label: 'Incident type',
  fields: { id: 'int', name: 'text', visibility: 'text' },
};

const VISIBILITIES = ['Open', 'Restricted'];

/** Rules of incident and case types: records of a type start with its visibility, so it must be one they can have. */
export const typeRules: Hooks = {
  beforeWrite: (_tx, _ctx, values) => {
    const v = values.visibility;
    if (v == null || VISIBILITIES.includes(v as string)) return;
    const msg = `value is not a valid enumeration member; permitted: ${VISIBILITIES.map((x) => `'${x}'`).join(', ')}`;
    throw validationError([{ loc: ['body', 'visibility'], msg, type: 'type_error.enum', ctx: { enum_values: VISIBILITIES } }]);
  },
};

/** The cost model a type names (beyond 0.1.0). */
export const costModelRef = { column: 'cost_model_id', target: costModelTarget, read: costModelReader };

export const typeListFields: Fields = {
  id: 'int',
  name: 'text',
  description: 'text',
  visibility: 'text',
  default: 'bool',
  enabled: 'bool',
  exclude_from_metrics: 'bool',
  created_at: 'timestamp',
};

export const incidentTypeGroup: GroupDef = {
  path: 'incident_types',
  tags: ['incident_types'],
  idParam: 'incident_type_id',
  thing: 'An incident type',
  model: 'IncidentType',
  tableName: 'incident_type',
  table: incidentType,
  shapes: { create: IncidentTypeCreate, update: IncidentTypeUpdate, read: IncidentTypeWithCostModel, pagination: IncidentTypePagination },
  fields: typeListFields,
  operations: ['list', 'create', 'get', 'update'],
  writePermission: 'SensitiveProjectAction',
  refs: {
    ...Object.fromEntries(TEMPLATE_DOCUMENTS.map((f) => [f, { column: `${f}_id`, target: documentTarget }])),
    cost_model: costModelRef,
  },
  unique: { incident_type_project_name_key: 'name' },
  oneDefault: true,
  hooks: typeRules,
};
