// Incident costs on the CRUD mechanism. A cost belongs to an incident once an incident update lists
// it (this group's bodies name no incident); costs of restricted incidents stay hidden from those who
// may not see the incident. Costs of a non-editable type (the response cost) are Muster's to compute:
// nobody creates, changes or deletes one by hand (403, as for the type itself).
import { eq, isNull, or } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { GroupDef, Row } from '../../crud/group.ts';
import type { Executor } from '../../db/connection.ts';
import { errors } from '../../server/errors.ts';
import { incidentCostTypeGroup, incidentCostTypeTarget } from '../incident_cost_type/group.ts';
import { incidentCostType } from '../incident_cost_type/table.ts';
import { groupReader } from '../../crud/reader.ts';
import { incident } from '../lifecycle/table.ts';
import { incidentVisible } from '../incident/visibility.ts';
import { IncidentCostCreate, IncidentCostPagination, IncidentCostRead, IncidentCostUpdate } from './schema.ts';
import { incidentCost } from './table.ts';

async function costType(tx: Executor, id: number) {
  const [row] = await tx
    .select({ project_id: incidentCostType.project_id, editable: incidentCostType.editable })
    .from(incidentCostType)
    .where(eq(incidentCostType.id, id));
  return row;
}

const computed = (action: 'create' | 'update' | 'delete') =>
  errors.forbidden(`You are not allowed to ${action} this incident cost: Muster computes costs of this type.`);

const costIncident = alias(incident, 'incident');

export const incidentCostGroup: GroupDef = {
  path: 'incident_costs',
  tags: ['incident_costs'],
  idParam: 'incident_cost_id',
  thing: 'An incident cost',
  model: 'IncidentCost',
  tableName: 'incident_cost',
  table: incidentCost,
  shapes: { create: IncidentCostCreate, update: IncidentCostUpdate, read: IncidentCostRead, pagination: IncidentCostPagination },
  fields: { id: 'int', amount: 'float', incident_id: 'int', created_at: 'timestamp', updated_at: 'timestamp' },
  relations: [
    {
      kind: 'one',
      model: 'Incident',
      tableName: 'incident',
      table: costIncident,
      on: eq(costIncident.id, incidentCost.incident_id),
      fields: { id: 'int', name: 'text', title: 'text', status: 'text' },
    },
  ],
  refs: { incident_cost_type: { column: 'incident_cost_type_id', target: incidentCostTypeTarget, read: () => groupReader(incidentCostTypeGroup) } },
  writePermission: 'SensitiveProjectAction',
  visibleTo: (ctx) => or(isNull(incidentCost.incident_id), incidentVisible(ctx, incidentCost.incident_id)),
  hooks: {
    beforeWrite: async (tx, _ctx, values, existing?: Row) => {
      if (existing && (await costType(tx, existing.incident_cost_type_id as number))?.editable === false) throw computed('update');
      const typeId = values.incident_cost_type_id as number | undefined;
      if (typeId === undefined) return;
      const type = await costType(tx, typeId);
      if (type?.editable === false) throw computed(existing ? 'update' : 'create');
      if (!existing && type) values.project_id = type.project_id;
    },
    beforeDelete: async (tx, _ctx, existing) => {
      if ((await costType(tx, existing.incident_cost_type_id as number))?.editable === false) throw computed('delete');
    },
  },
};
