import type { App } from '../../server/routing.ts';
import { ListQuery, NullResponse, OrgParams } from '../../server/shapes.ts';
import { PluginEventPagination, PluginInstanceCreate, PluginInstancePagination, PluginInstanceRead, PluginInstanceUpdate, PluginPagination } from './schema.ts';
import { createInstance, deleteInstance, getInstance, listInstances, listPluginEvents, listPlugins, updateInstance } from './service.ts';

const tags = ['plugins'];
const one = OrgParams('plugin_instance_id');
// Instances hold other systems' credentials: only Admins and above see one or change it (BEHAVIOR
// §4.4); the list, secrets masked, is open to every member as in current Dispatch.
const config = { permission: 'SensitiveProjectAction' } as const;

export default async function pluginRoutes(app: App) {
  app.get(
    '/:organization/plugins',
    { schema: { tags, operationId: 'get_plugins', params: OrgParams(), querystring: ListQuery, response: { 200: PluginPagination } } },
    (req) => listPlugins(req.ctx, req.query),
  );

  // Beyond 0.1.0: what the web UI's cost model form offers (Dispatch's plugin events).
  app.get(
    '/:organization/plugins/plugin_events',
    {
      schema: { tags, operationId: 'get_plugin_events', params: OrgParams(), querystring: ListQuery, response: { 200: PluginEventPagination } },
    },
    (req) => listPluginEvents(req.ctx, req.query),
  );

  app.get(
    '/:organization/plugins/instances',
    {
      schema: { tags, operationId: 'get_plugin_instances', params: OrgParams(), querystring: ListQuery, response: { 200: PluginInstancePagination } },
    },
    (req) => listInstances(req.ctx, req.query),
  );

  app.post(
    '/:organization/plugins/instances',
    {
      schema: { tags, operationId: 'create_plugin_instance', params: OrgParams(), body: PluginInstanceCreate, response: { 200: PluginInstanceRead } },
      config,
    },
    (req) => createInstance(req.ctx, req.body),
  );

  app.get(
    '/:organization/plugins/instances/:plugin_instance_id',
    { schema: { tags, operationId: 'get_plugin_instance', params: one, response: { 200: PluginInstanceRead } }, config },
    (req) => getInstance(req.ctx, req.params.plugin_instance_id),
  );

  app.put(
    '/:organization/plugins/instances/:plugin_instance_id',
    { schema: { tags, operationId: 'update_plugin_instance', params: one, body: PluginInstanceUpdate, response: { 200: PluginInstanceRead } }, config },
    (req) => updateInstance(req.ctx, req.params.plugin_instance_id, req.body),
  );

  app.delete(
    '/:organization/plugins/instances/:plugin_instance_id',
    { schema: { tags, operationId: 'delete_plugin_instances', params: one, response: { 200: NullResponse } }, config },
    (req) => deleteInstance(req.ctx, req.params.plugin_instance_id),
  );
}
