import { withoutDefaults } from '../../crud/routes.ts';
import type { App } from '../../server/routing.ts';
import { NullResponse, OrgParams } from '../../server/shapes.ts';
import { TaskCreate, TaskList, TaskListQuery, TaskRead, TaskUpdate, type TaskBody } from './schema.ts';
import { createTask, deleteTask, listTasks, updateTask } from './service.ts';
import { tasksFromReview } from './from-review.ts';
import { Type } from '@sinclair/typebox';

const tags = ['tasks'];

export default async function taskRoutes(app: App) {
  app.get('/:organization/tasks', { schema: { tags, params: OrgParams(), querystring: TaskListQuery, response: { 200: TaskList } } }, (req) =>
    listTasks(req.ctx, req.query, req.query['include[]']),
  );
  app.post('/:organization/tasks', { schema: { tags, params: OrgParams(), body: TaskCreate, response: { 200: TaskRead } } }, (req) =>
    createTask(req.ctx, req.body as TaskBody),
  );
  app.put(
    '/:organization/tasks/:task_id',
    { schema: { tags, params: OrgParams('task_id'), body: withoutDefaults(TaskUpdate, new Set(['assignees'])), response: { 200: TaskRead } } },
    (req) => updateTask(req.ctx, req.params.task_id, req.body as TaskBody),
  );
  // Beyond 0.1.0: a post-incident review's open action items made tasks of its incident (docs/documents.md).
  app.post(
    '/:organization/documents/:document_id/action_items',
    { schema: { tags, params: OrgParams('document_id'), response: { 200: Type.Array(TaskRead) } } },
    (req) => tasksFromReview(req.ctx, req.params.document_id),
  );
  app.delete('/:organization/tasks/:task_id', { schema: { tags, params: OrgParams('task_id'), response: { 200: NullResponse } } }, (req) =>
    deleteTask(req.ctx, req.params.task_id),
  );
}
