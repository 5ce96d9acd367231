import type { App } from '../../server/routing.ts';
import { ListQuery, NullResponse, OrgParams } from '../../server/shapes.ts';
import { ProjectCreate, ProjectPagination, ProjectRead, ProjectUpdate } from './schema.ts';
import { createProject, deleteProject, getProject, listProjects, updateProject } from './service.ts';

const tags = ['projects'];
const one = OrgParams('project_id');

export default async function projectRoutes(app: App) {
  app.get(
    '/:organization/projects',
    { schema: { tags, operationId: 'get_projects', params: OrgParams(), querystring: ListQuery, response: { 200: ProjectPagination } } },
    (req) => listProjects(req.ctx, req.query),
  );

  app.post(
    '/:organization/projects',
    {
      schema: { tags, operationId: 'create_project', params: OrgParams(), body: ProjectCreate, response: { 200: ProjectRead } },
      config: { permission: 'ProjectCreate' },
    },
    (req) => createProject(req.ctx, req.body),
  );

  app.get('/:organization/projects/:project_id', { schema: { tags, operationId: 'get_project', params: one, response: { 200: ProjectRead } } }, (req) =>
    getProject(req.ctx, req.params.project_id),
  );

  app.put(
    '/:organization/projects/:project_id',
    {
      schema: { tags, operationId: 'update_project', params: one, body: ProjectUpdate, response: { 200: ProjectRead } },
      config: { permission: 'ProjectUpdate' },
    },
    (req) => updateProject(req.ctx, req.params.project_id, req.body),
  );

  app.delete(
    '/:organization/projects/:project_id',
    {
      schema: { tags, operationId: 'delete_project', params: one, response: { 200: NullResponse } },
      config: { permission: 'ProjectUpdate' },
    },
    async (req) => {
      await deleteProject(req.ctx, req.params.project_id, app.muster.projectHoldings);
      return null;
    },
  );
}
