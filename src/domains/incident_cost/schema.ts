import { Type } from '@sinclair/typebox';
import { Defaulted, Id, Pagination, RefShape } from '../../server/shapes.ts';
import { IncidentCostTypeRead } from '../incident_cost_type/schema.ts';
import { IncidentCostRead } from '../incident/schema.ts';
import { ProjectRead } from '../project/schema.ts';

export { IncidentCostRead };

const amount = Defaulted(Type.Number({ default: 0 }));

// The project is required, as the contract says; the cost goes into its cost type's project (the
// type is looked up in the body's project, so the two are the same).
export const IncidentCostCreate = Type.Object(
  { amount, incident_cost_type: RefShape(IncidentCostTypeRead), project: RefShape(ProjectRead) },
  { title: 'IncidentCostCreate', additionalProperties: false },
);
export const IncidentCostUpdate = Type.Object(
  { id: Type.Optional(Id()), amount, incident_cost_type: RefShape(IncidentCostTypeRead) },
  { title: 'IncidentCostUpdate', additionalProperties: false },
);
export const IncidentCostPagination = Pagination(IncidentCostRead, 'IncidentCostPagination');
