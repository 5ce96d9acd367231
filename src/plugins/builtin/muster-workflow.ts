// Muster's own workflow protocol, for any workflow system that speaks a small JSON protocol over HTTP:
//
//   POST <url>            {"resource_id": "...", "params": {...}}   starts a run
//   GET  <url>/<run id>                                             reports on it
//
// Both answer `{status, id (or resource_id), weblink, artifacts: [{name, weblink, ...}]}`. A status
// Muster does not know (or none) reads as `Created`. The run request carries the job's id as
// `Idempotency-Key`, so a receiver that honours it starts one run however often the job retries.
// Any answer but 2xx, a body that is not JSON, or no answer in time throws: the job retries.
// (`generic-workflow` speaks Dispatch's protocol instead.)
import { Type } from '@sinclair/typebox';
import { authoredByMuster } from './authored.ts';
import type { Configuration, PluginEnv, WorkflowPlugin, WorkflowStatus } from '../types.ts';
import { callReceiver, statusOf } from './workflow-receiver.ts';

function headersOf(config: Configuration, extra: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', ...extra };
  if (typeof config.auth_header === 'string' && config.auth_header) headers.authorization = config.auth_header;
  return headers;
}

async function call(env: PluginEnv, url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<WorkflowStatus> {
  const reported = statusOf(await callReceiver(env, url, init));
  return { ...reported, status: reported.status ?? 'Created' };
}

const baseUrl = (config: Configuration) => String(config.url ?? '').replace(/\/+$/, '');

export const musterWorkflowPlugin: WorkflowPlugin = {
  slug: 'muster-workflow',
  title: 'Muster Workflow Plugin - Workflow Management',
  type: 'workflow',
  ...authoredByMuster,
  description: 'Runs workflows in any system that takes a JSON POST to start a run and answers a GET with its status.',
  configuration: Type.Object(
    {
      url: Type.String({
        format: 'uri',
        'x-secret-bound': ['auth_header'],
        description: 'Where runs are started (POST) and, below it, looked up (GET <url>/<run id>)',
      }),
      auth_header: Type.Optional(Type.String({ writeOnly: true, description: 'Sent as the Authorization header, e.g. "Bearer <token>"' })),
    },
    { additionalProperties: false },
  ),
  run(request, config, env) {
    return call(env, baseUrl(config), {
      method: 'POST',
      headers: headersOf(config, { 'content-type': 'application/json', 'idempotency-key': env.idempotencyKey }),
      body: JSON.stringify({ resource_id: request.resource_id, params: request.params }),
    });
  },
  status(run, config, env) {
    return call(env, `${baseUrl(config)}/${encodeURIComponent(run.resource_id)}`, { method: 'GET', headers: headersOf(config, {}) });
  },
};
