import { withoutDefaults } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { ListQuery, NullResponse, OrgParams } from '../../server/shapes.ts';
import {
  WorkflowCreate,
  WorkflowInstanceCreate,
  WorkflowInstanceRead,
  WorkflowPagination,
  WorkflowRead,
  WorkflowUpdate,
  type RunBody,
  type WorkflowBody,
} from './schema.ts';
import { createWorkflow, deleteWorkflow, getWorkflow, getWorkflowInstance, listWorkflows, runWorkflow, updateWorkflow } from './service.ts';

const tags = ['workflows'];
const sensitive = { permission: 'SensitiveProjectAction' as const };

export default async function workflowRoutes(app: App) {
  app.get('/:organization/workflows', { schema: { tags, params: OrgParams(), querystring: ListQuery, response: { 200: WorkflowPagination } } }, (req) =>
    listWorkflows(req.ctx, req.query),
  );
  app.post(
    '/:organization/workflows',
    { schema: { tags, params: OrgParams(), body: WorkflowCreate, response: { 200: WorkflowRead } }, config: sensitive },
    (req) => createWorkflow(req.ctx, req.body as WorkflowBody),
  );
  // Registered before /workflows/:workflow_id, which would otherwise take "instances".
  app.get(
    '/:organization/workflows/instances/:workflow_instance_id',
    { schema: { tags, params: OrgParams('workflow_instance_id'), response: { 200: WorkflowInstanceRead } } },
    (req) => getWorkflowInstance(req.ctx, req.params.workflow_instance_id),
  );
  app.get('/:organization/workflows/:workflow_id', { schema: { tags, params: OrgParams('workflow_id'), response: { 200: WorkflowRead } } }, (req) =>
    getWorkflow(req.ctx, req.params.workflow_id),
  );
  app.put(
    '/:organization/workflows/:workflow_id',
    {
      schema: { tags, params: OrgParams('workflow_id'), body: withoutDefaults(WorkflowUpdate, new Set(['parameters'])), response: { 200: WorkflowRead } },
      config: sensitive,
    },
    (req) => updateWorkflow(req.ctx, req.params.workflow_id, req.body as WorkflowBody),
  );
  app.delete(
    '/:organization/workflows/:workflow_id',
    { schema: { tags, params: OrgParams('workflow_id'), response: { 200: NullResponse } }, config: sensitive },
    (req) => deleteWorkflow(req.ctx, req.params.workflow_id),
  );
  app.post(
    '/:organization/workflows/:workflow_id/run',
    { schema: { tags, params: OrgParams('workflow_id'), body: WorkflowInstanceCreate, response: { 200: WorkflowInstanceRead } } },
    (req) => runWorkflow(req.ctx, req.params.workflow_id, req.body as RunBody),
  );
}
