import { Type } from '@sinclair/typebox';
import { DateTime, Id, Opt, RefShape } from '../../server/shapes.ts';
import { IndividualContactRead } from '../individual/schema.ts';
import { incidentPriorityShapes } from '../incident_priority/schema.ts';
import { IncidentTypeRead } from '../incident_type/schema.ts';
import { ParticipantRoleType } from './roles.ts';
import { ProjectRead } from '../project/schema.ts';
import { ServiceRead } from '../service/schema.ts';
import { TagRead } from '../tag/schema.ts';

const Order = Type.Integer({ exclusiveMinimum: 0 });

export const IncidentRoleRead = Type.Object(
  {
    id: Id(),
    role: ParticipantRoleType,
    enabled: Type.Boolean(),
    order: Order,
    tags: Type.Array(TagRead),
    incident_types: Type.Array(IncidentTypeRead),
    incident_priorities: Type.Array(incidentPriorityShapes.read),
    service: Opt(ServiceRead),
    individual: Opt(IndividualContactRead),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'IncidentRoleRead' },
);

/** One policy in a PUT: with `id` it is updated, without it is created. Records are named by id or name (the service by id or external id, the individual by id or email). */
export const IncidentRoleCreateUpdate = Type.Object(
  {
    id: Type.Optional(Id()),
    enabled: Type.Optional(Type.Boolean()),
    order: Type.Optional(Order),
    // The project is the one named by `projectName`; this one is ignored.
    project: Opt(RefShape(ProjectRead)),
    tags: Type.Optional(Type.Array(RefShape(TagRead))),
    incident_types: Type.Optional(Type.Array(RefShape(IncidentTypeRead))),
    incident_priorities: Type.Optional(Type.Array(RefShape(incidentPriorityShapes.read))),
    service: Opt(RefShape(ServiceRead)),
    individual: Opt(RefShape(IndividualContactRead)),
  },
  { title: 'IncidentRoleCreateUpdate', additionalProperties: false },
);

export const IncidentRolesCreateUpdate = Type.Object(
  { policies: Type.Array(IncidentRoleCreateUpdate) },
  { title: 'IncidentRolesCreateUpdate', additionalProperties: false },
);

export const IncidentRoles = Type.Object({ policies: Type.Array(IncidentRoleRead, { default: [] }) }, { title: 'IncidentRoles' });

export const IncidentRoleQuery = Type.Object({ projectName: Type.String() });
