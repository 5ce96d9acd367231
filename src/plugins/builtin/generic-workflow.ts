// Dispatch's generic workflow plugin, on the wire as Dispatch's own sends it, so that a receiver
// written for Dispatch keeps working unchanged:
//
//   POST <api_url>   {"workflow_id": "<the workflow's resource_id>", "params": {...}}    starts a run
//   GET  <api_url>?workflow_id=<id>&tags=workflowId:<id>&tags=workflowInstanceId:<run>   reports on it
//
// Both carry `Content-Type: application/json` and `Authorization: <auth_header>`; the body is written
// as Python's json.dumps writes it, and `params` ends with `externalRef` (the subject's page) and
// `workflowInstanceId` (the run's id, a number). The status answer is
// `{status, weblink, artifacts: [{name, weblink, ...}]}`; an empty one, or one without a status
// Muster knows, changes nothing. Dispatch reads nothing of the start's answer; Muster keeps what it
// says in the same shape. Any answer but 2xx, a body that is not JSON, or no answer in time throws:
// the job retries (Dispatch retried 429 and 5xx). Muster's own protocol is `muster-workflow`.
import { Type } from '@sinclair/typebox';
import { authoredByMuster } from './authored.ts';
import type { Configuration, PluginEnv, WorkflowPlugin, WorkflowStatus } from '../types.ts';
import { callReceiver, statusOf } from './workflow-receiver.ts';

/** JSON as Python's json.dumps writes it by default: ", " and ": " between items, non-ASCII escaped. */
export function pythonJson(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(pythonJson).join(', ')}]`;
  if (value && typeof value === 'object') {
    const items = Object.entries(value).filter(([, v]) => v !== undefined);
    return `{${items.map(([k, v]) => `${pythonJson(k)}: ${pythonJson(v)}`).join(', ')}}`;
  }
  if (typeof value === 'string') return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
  return JSON.stringify(value) ?? 'null';
}

const headersOf = (config: Configuration) => ({ 'content-type': 'application/json', authorization: String(config.auth_header ?? '') });

async function call(env: PluginEnv, url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<WorkflowStatus> {
  return statusOf(await callReceiver(env, url, init));
}

/** Dispatch sends the run's id as a number; Muster's requests carry every parameter as text. */
function paramsOf(params: Record<string, string>): Record<string, unknown> {
  const id = Number(params.workflowInstanceId);
  return 'workflowInstanceId' in params && Number.isSafeInteger(id) ? { ...params, workflowInstanceId: id } : params;
}

export const genericWorkflowPlugin: WorkflowPlugin = {
  slug: 'generic-workflow',
  title: 'Generic Workflow Plugin - Workflow Management',
  type: 'workflow',
  ...authoredByMuster,
  description: 'A generic workflow plugin that calls an API endpoint to kick-off a workflow and retrieve the status of a workflow.',
  configuration: Type.Object(
    {
      api_url: Type.String({ format: 'uri', title: 'API URL', description: 'This API endpoint to GET or POST workflow info from/to.' }),
      auth_header: Type.String({
        writeOnly: true,
        title: 'Authorization Header',
        description: 'For example: Bearer: JWT token, or basic: Basic QWxhZGRpbjpvcGVuIHNlc2FtZQ==',
      }),
    },
    { additionalProperties: false },
  ),
  run(request, config, env) {
    return call(env, String(config.api_url), {
      method: 'POST',
      headers: headersOf(config),
      body: pythonJson({ workflow_id: request.resource_id, params: paramsOf(request.params) }),
    });
  },
  status(run, config, env) {
    const url = new URL(String(config.api_url));
    url.searchParams.append('workflow_id', run.workflow_id);
    url.searchParams.append('tags', `workflowId:${run.workflow_id}`);
    url.searchParams.append('tags', `workflowInstanceId:${run.instance_id}`);
    return call(env, url.href, { method: 'GET', headers: headersOf(config) });
  },
};
