import { Type } from '@sinclair/typebox';
import type { App } from '../../server/routing.ts';
import { OrganizationSlug } from '../../server/shapes.ts';
import { ParticipantRoleType } from './roles.ts';
import { IncidentRoleQuery, IncidentRoles, IncidentRolesCreateUpdate } from './schema.ts';
import { getRolePolicies, replaceRolePolicies } from './service.ts';

const tags = ['role'];
const params = Type.Object({ organization: OrganizationSlug, role: ParticipantRoleType });

export default async function incidentRoleRoutes(app: App) {
  app.get('/:organization/incident_roles/:role', { schema: { tags, params, querystring: IncidentRoleQuery, response: { 200: IncidentRoles } } }, (req) =>
    getRolePolicies(req.ctx, req.params.role, req.query.projectName),
  );

  app.put(
    '/:organization/incident_roles/:role',
    {
      schema: { tags, params, querystring: IncidentRoleQuery, body: IncidentRolesCreateUpdate, response: { 200: IncidentRoles } },
      config: { permission: 'SensitiveProjectAction' },
    },
    (req) => replaceRolePolicies(req.ctx, req.params.role, req.query.projectName, req.body),
  );
}
