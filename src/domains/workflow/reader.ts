// Workflows and their runs as the API reads them. A workflow nests its plugin instance with the
// instance's configuration masked (secrets shown as `**********`, never in clear) and its plugin;
// a run nests its workflow, its creator, the artifacts it produced (documents) and the id and name
// of the incident, case or signal it ran for. Incidents and cases nest their runs through
// `workflowInstanceReader`, one query per read.
import { eq, inArray } from 'drizzle-orm';
import type { GroupDef, Reader } from '../../crud/group.ts';
import { groupReader, projectReader, shallowReader, type ReadDef } from '../../crud/reader.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { pluginBySlug } from '../../plugins/registry.ts';
import { ConfigurationUnreadable, decryptConfiguration, maskConfiguration } from '../../plugins/secrets.ts';
import { UNRESTRICTED, type Viewer } from '../../server/viewer.ts';
import type { Settings } from '../../config.ts';
import { documentGroup, documentTarget } from '../document/group.ts';
import { caseTable, incident } from '../lifecycle/table.ts';
import { participantReader, participantTarget } from '../participant/reader.ts';
import { plugin, pluginInstance } from '../plugin/table.ts';
import { signal } from '../signal/table.ts';
import { WorkflowCreate, WorkflowInstanceRead, WorkflowPagination, WorkflowRead, WorkflowUpdate } from './schema.ts';
import { workflow, workflowInstance, workflowInstanceArtifact } from './table.ts';

export const pluginInstanceTarget: RefTarget = {
  table: pluginInstance,
  model: 'PluginInstance',
  label: 'Plugin instance',
  fields: { id: 'int', enabled: 'bool', plugin_type: 'text' },
};

/** The key that opens stored configurations, when the viewer is a request's or a job's context. */
const keyOf = (viewer: Viewer): string | undefined => (viewer === UNRESTRICTED ? undefined : (viewer as { settings?: Settings }).settings?.encryptionKey);

/** The configuration as callers see it: secrets masked; null when it cannot be opened here. */
function shownConfiguration(stored: string | null, slug: string, key: string | undefined) {
  if (!key) return null;
  try {
    return maskConfiguration(decryptConfiguration(stored, key), pluginBySlug(slug)?.configuration);
  } catch (err) {
    if (err instanceof ConfigurationUnreadable) return null;
    throw err;
  }
}

/** PluginInstanceRead by instance id, the configuration masked. */
export const pluginInstanceReader: Reader = async (db, ids, viewer) => {
  const wanted = [...new Set(ids)];
  if (wanted.length === 0) return new Map();
  const rows = await db
    .select({
      id: pluginInstance.id,
      enabled: pluginInstance.enabled,
      configuration: pluginInstance.configuration,
      project_id: pluginInstance.project_id,
      plugin: {
        id: plugin.id,
        title: plugin.title,
        slug: plugin.slug,
        author: plugin.author,
        author_url: plugin.author_url,
        type: plugin.type,
        multiple: plugin.multiple,
        description: plugin.description,
      },
    })
    .from(pluginInstance)
    .innerJoin(plugin, eq(plugin.id, pluginInstance.plugin_id))
    .where(inArray(pluginInstance.id, wanted));
  const projects = await projectReader(db, [...new Set(rows.map((r) => r.project_id))], viewer);
  const key = keyOf(viewer);
  return new Map(
    rows.map((r) => {
      const schema = pluginBySlug(r.plugin.slug)?.configuration ?? null;
      return [
        r.id,
        {
          id: r.id,
          enabled: r.enabled,
          configuration: shownConfiguration(r.configuration, r.plugin.slug, key),
          configuration_schema: schema,
          plugin: { ...r.plugin, configuration_schema: schema },
          project: projects.get(r.project_id) ?? null,
        },
      ];
    }),
  );
};

/** Workflows: listed, read and deleted through the CRUD mechanism; created and updated by service.ts. */
export const workflowGroup: GroupDef = {
  path: 'workflows',
  tags: ['workflows'],
  idParam: 'workflow_id',
  thing: 'A workflow',
  model: 'Workflow',
  tableName: 'workflow',
  table: workflow,
  shapes: { create: WorkflowCreate, update: WorkflowUpdate, read: WorkflowRead, pagination: WorkflowPagination },
  fields: { id: 'int', name: 'text', description: 'text', enabled: 'bool', resource_id: 'text', created_at: 'timestamp', updated_at: 'timestamp' },
  writePermission: 'SensitiveProjectAction',
  refs: { plugin_instance: { column: 'plugin_instance_id', target: pluginInstanceTarget, read: () => pluginInstanceReader } },
};

/** WorkflowRead by workflow id. */
export const workflowReader = () => groupReader(workflowGroup, WorkflowRead);

const named = (table: typeof incident | typeof caseTable | typeof signal) => () => shallowReader(table, { id: table.id, name: table.name });

const instanceDef: ReadDef = {
  table: workflowInstance,
  projectScoped: false,
  refs: {
    workflow: { column: 'workflow_id', target: { table: workflow, model: 'Workflow', label: 'Workflow' }, read: workflowReader },
    creator: { column: 'creator_id', target: participantTarget, read: participantReader },
    incident: { column: 'incident_id', target: { table: incident, model: 'Incident', label: 'Incident', projectScoped: false }, read: named(incident) },
    case: { column: 'case_id', target: { table: caseTable, model: 'Case', label: 'Case', projectScoped: false }, read: named(caseTable) },
    signal: { column: 'signal_id', target: { table: signal, model: 'Signal', label: 'Signal' }, read: named(signal) },
  },
  links: {
    artifacts: {
      table: workflowInstanceArtifact,
      ownerColumn: 'workflow_instance_id',
      otherColumn: 'document_id',
      target: documentTarget,
      read: () => groupReader(documentGroup),
    },
  },
};

/** WorkflowInstanceRead by instance id; incidents and cases read their runs with it. */
export const workflowInstanceReader = () => groupReader(instanceDef, WorkflowInstanceRead);
