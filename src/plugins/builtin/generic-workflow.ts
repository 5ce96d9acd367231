// A workflow plugin for any workflow system that speaks a small JSON protocol over HTTP:
//
//   POST <url>            {"resource_id": "...", "params": {...}}   starts a run
//   GET  <url>/<run id>                                             reports on it
//
// Both answer `{status, id (or resource_id), weblink, artifacts: [{name, weblink, ...}]}`. A status
// Muster does not know (or none) reads as `Created`. The run request carries the job's id as
// `Idempotency-Key`, so a receiver that honours it starts one run however often the job retries.
// Any answer but 2xx, a body that is not JSON, or no answer in time throws: the job retries.
import { Type } from '@sinclair/typebox';
import { failureOf } from '../../lib/outbound/client.ts';
import {
  WORKFLOW_STATES,
  type Configuration,
  type PluginEnv,
  type WorkflowArtifact,
  type WorkflowPlugin,
  type WorkflowState,
  type WorkflowStatus,
} from '../types.ts';

/** How long one call may take. */
const TIMEOUT_MS = 10_000;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

/** A status as the receiver writes it ("running", "COMPLETED"), as one of Muster's; unknown ones read as Created. */
function stateOf(v: unknown): WorkflowState {
  const wanted = typeof v === 'string' ? v.trim().toLowerCase() : '';
  return WORKFLOW_STATES.find((s) => s.toLowerCase() === wanted) ?? 'Created';
}

function artifactsOf(v: unknown): WorkflowArtifact[] {
  if (!Array.isArray(v)) return [];
  return v
    .filter(
      (a): a is Record<string, unknown> =>
        !!a && typeof a === 'object' && typeof (a as { name?: unknown }).name === 'string' && (a as { name: string }).name.trim() !== '',
    )
    .map((a) => ({
      name: (a.name as string).trim(),
      weblink: str(a.weblink),
      resource_id: str(a.resource_id),
      resource_type: str(a.resource_type),
      description: str(a.description),
    }));
}

/** The receiver's answer as a WorkflowStatus. */
export function statusOf(body: unknown): WorkflowStatus {
  const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  return { status: stateOf(b.status), resource_id: str(b.id) ?? str(b.resource_id), weblink: str(b.weblink), artifacts: artifactsOf(b.artifacts) };
}

function headersOf(config: Configuration, extra: Record<string, string>): Record<string, string> {
  const headers: Record<string, string> = { accept: 'application/json', ...extra };
  if (typeof config.auth_header === 'string' && config.auth_header) headers.authorization = config.auth_header;
  return headers;
}

async function callReceiver(env: PluginEnv, url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<WorkflowStatus> {
  let res: Response;
  try {
    res = await env.outbound.fetch(url, { ...init, timeoutMs: TIMEOUT_MS });
  } catch (err) {
    // The URL's origin only: its path may hold a token.
    throw new Error(`workflow receiver ${new URL(url).origin} did not answer: ${failureOf(err)}`);
  }
  const text = await res.text();
  if (!res.ok) throw new Error(`workflow receiver answered ${res.status}`);
  try {
    return statusOf(text === '' ? {} : JSON.parse(text));
  } catch {
    throw new Error(`workflow receiver answered ${res.status} with a body that is not JSON`);
  }
}

const baseUrl = (config: Configuration) => String(config.url ?? '').replace(/\/+$/, '');

export const genericWorkflowPlugin: WorkflowPlugin = {
  slug: 'generic-workflow',
  title: 'Generic Workflow Plugin - Workflow Management',
  type: 'workflow',
  version: '0.1.0',
  author: 'Muster',
  author_url: 'https://github.com/muster-project/muster',
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
    return callReceiver(env, baseUrl(config), {
      method: 'POST',
      headers: headersOf(config, { 'content-type': 'application/json', 'idempotency-key': env.idempotencyKey }),
      body: JSON.stringify({ resource_id: request.resource_id, params: request.params }),
    });
  },
  status(run, config, env) {
    return callReceiver(env, `${baseUrl(config)}/${encodeURIComponent(run.resource_id)}`, { method: 'GET', headers: headersOf(config, {}) });
  },
};
