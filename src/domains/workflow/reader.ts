import type { GroupDef } from '../../crud/group.ts';
import { groupReader, shallowReader, type ReadDef } from '../../crud/reader.ts';
import type { RefTarget } from '../../crud/refs.ts';
import { documentGroup, documentTarget } from '../document/group.ts';
import { caseTable, incident } from '../lifecycle/table.ts';
import { participantReader, participantTarget } from '../participant/reader.ts';
import { pluginInstanceReader } from '../plugin/service.ts';
import { pluginInstance } from '../plugin/table.ts';
import { signal } from '../signal/table.ts';
import { WorkflowCreate, WorkflowInstanceRead, WorkflowPagination, WorkflowRead, WorkflowUpdate } from './schema.ts';
import { workflow, workflowInstance, workflowInstanceArtifact } from './table.ts';

export const pluginInstanceTarget: RefTarget = {
  table: pluginInstance,
  model: 'PluginInstance',
  label: 'Plugin instance',
  fields: { id: 'int', enabled: 'bool', plugin_type: 'text' },
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

const named = (table: typeof incident | typeof caseTable | typeof signal) => () => shallowReader(table);

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
