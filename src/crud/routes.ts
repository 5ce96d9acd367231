// The HTTP side of a record group: list, create, get, update and delete under
// /{organization}/<path>, with the group's shapes and permission.
import { declareRead } from './reader.ts';
import type { FastifyContextConfig } from 'fastify';
import { Type, type TSchema } from '@sinclair/typebox';
import type { App } from '../server/routing.ts';
import { ListQuery, MAX_ID, NullResponse, OrganizationSlug } from '../server/shapes.ts';
import { permissionOf, type GroupDef, type Operation, type WriteOperation } from './group.ts';
import { createRecord, deleteRecord, getRecordResponse, listRecords, updateRecord } from './service.ts';

const ALL: Operation[] = ['list', 'create', 'get', 'update', 'delete'];

/**
 * An update changes only the fields it sends (Pydantic's `exclude_unset`): defaults in an update
 * shape would overwrite stored values with them, so update bodies are validated without defaults.
 * Relationship lists keep theirs: Dispatch assigns them from the model, so an omitted list with a
 * default of `[]` empties it. Lists stored as values (plugin_metadata, links) stay as they are.
 */
export function withoutDefaults<T extends TSchema>(schema: T, relationships: Set<string> = new Set()): T {
  const strip = (node: unknown): unknown => {
    if (Array.isArray(node)) return node.map(strip);
    if (!node || typeof node !== 'object') return node;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(node)) if (k !== 'default') out[k] = k === 'properties' ? fields(v as Record<string, unknown>) : strip(v);
    return out;
  };
  // Inside `properties` the keys are field names: a field called `default` (priorities, types) stays.
  const fields = (props: Record<string, unknown>) =>
    Object.fromEntries(
      Object.entries(props).map(([name, v]) => {
        const kept = strip(v) as Record<string, unknown>;
        const original = v as { default?: unknown };
        return [name, relationships.has(name) && original.default !== undefined ? { ...kept, default: original.default } : kept];
      }),
    );
  return strip(schema) as T;
}

export function registerGroup(app: App, def: GroupDef) {
  declareRead(def, def.shapes.read, def.tableName);
  const ops = new Set(def.operations ?? ALL);
  const base = `/:organization/${def.path}`;
  const one = `${base}/:${def.idParam}`;
  const params = Type.Object({ organization: OrganizationSlug });
  const oneParams = Type.Object({ organization: OrganizationSlug, [def.idParam]: Type.Integer({ minimum: 0, maximum: MAX_ID }) });
  const id = (p: unknown) => (p as Record<string, number>)[def.idParam];
  const write = (op: WriteOperation): FastifyContextConfig => {
    const permission = permissionOf(def, op);
    return permission ? { permission } : {};
  };
  const tags = def.tags;

  if (ops.has('list')) {
    app.get(base, { schema: { tags, params, querystring: ListQuery, response: { 200: def.shapes.pagination } } }, (req) =>
      listRecords(req.ctx, def, req.query),
    );
  }
  if (ops.has('create')) {
    app.post(base, { schema: { tags, params, body: def.shapes.create, response: { 200: def.shapes.read } }, config: write('create') }, (req) =>
      createRecord(req.ctx, def, req.body as Record<string, unknown>),
    );
  }
  if (ops.has('get')) {
    app.get(one, { schema: { tags, params: oneParams, response: { 200: def.shapes.read } } }, (req) => getRecordResponse(req.ctx, def, id(req.params)));
  }
  if (ops.has('update')) {
    app.put(
      one,
      {
        schema: {
          tags,
          params: oneParams,
          body: withoutDefaults(def.shapes.update, new Set([...Object.keys(def.links ?? {}), ...Object.keys(def.children ?? {})])),
          response: { 200: def.shapes.read },
        },
        config: write('update'),
      },
      (req) => updateRecord(req.ctx, def, id(req.params), req.body as Record<string, unknown>),
    );
  }
  if (ops.has('delete')) {
    app.delete(one, { schema: { tags, params: oneParams, response: { 200: NullResponse } }, config: write('delete') }, (req) =>
      deleteRecord(req.ctx, def, id(req.params)),
    );
  }
}
