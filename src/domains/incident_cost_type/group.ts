import type { GroupDef, Row } from '../../crud/group.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { errors } from '../../server/errors.ts';
import { IncidentCostTypeCreate, IncidentCostTypePagination, IncidentCostTypeRead, IncidentCostTypeUpdate } from './schema.ts';
import { incidentCostType } from './table.ts';

export const incidentCostTypeTarget: RefTarget = { table: incidentCostType, model: 'IncidentCostType', label: 'Incident cost type' };

/** The seeded response-cost type is computed by Muster, so nobody edits or removes it. */
function refuseLocked(existing: Row | undefined, action: 'update' | 'delete') {
  if (existing?.editable === false) throw errors.forbidden(`You are not allowed to ${action} this incident cost type.`);
}

export const incidentCostTypeGroup: GroupDef = {
  path: 'incident_cost_types',
  tags: ['incident_cost_types'],
  idParam: 'incident_cost_type_id',
  thing: 'An incident cost type',
  model: 'IncidentCostType',
  tableName: 'incident_cost_type',
  table: incidentCostType,
  shapes: { create: IncidentCostTypeCreate, update: IncidentCostTypeUpdate, read: IncidentCostTypeRead, pagination: IncidentCostTypePagination },
  fields: { id: 'int', name: 'text', description: 'text', category: 'text', default: 'bool', editable: 'bool', created_at: 'timestamp' },
  writePermission: 'SensitiveProjectAction',
  unique: { incident_cost_type_project_name_key: 'name' },
  oneDefault: true,
  hooks: {
    beforeWrite: (_tx, _ctx, _values, existing) => refuseLocked(existing, 'update'),
    beforeDelete: (_tx, _ctx, existing) => refuseLocked(existing, 'delete'),
  },
};
