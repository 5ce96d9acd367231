// What the two HTTP workflow plugins share: one call to a receiver (the outbound client, a time
// limit, errors that name the origin only) and the reading of its answer,
// `{status, id (or resource_id), weblink, artifacts: [{name, weblink, ...}]}`.
import { failureOf } from '../../lib/outbound/client.ts';
import { WORKFLOW_STATES, type PluginEnv, type WorkflowArtifact, type WorkflowState, type WorkflowStatus } from '../types.ts';

/** How long one call may take. */
const TIMEOUT_MS = 10_000;

const str = (v: unknown): string | null => (typeof v === 'string' && v !== '' ? v : typeof v === 'number' ? String(v) : null);

/** A status as the receiver writes it ("running", "COMPLETED"), as one of Muster's; undefined when absent or unknown. */
function stateOf(v: unknown): WorkflowState | undefined {
  const wanted = typeof v === 'string' ? v.trim().toLowerCase() : '';
  return WORKFLOW_STATES.find((s) => s.toLowerCase() === wanted);
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

/** The receiver's answer as a WorkflowStatus; its `status` is undefined when the answer names none Muster knows. */
export function statusOf(body: unknown): WorkflowStatus {
  const b = body && typeof body === 'object' ? (body as Record<string, unknown>) : {};
  return { status: stateOf(b.status), resource_id: str(b.id) ?? str(b.resource_id), weblink: str(b.weblink), artifacts: artifactsOf(b.artifacts) };
}

/** Calls the receiver; its JSON answer (undefined for an empty body). Anything but a 2xx JSON answer in time throws: the job retries. */
export async function callReceiver(env: PluginEnv, url: string, init: { method: string; headers: Record<string, string>; body?: string }): Promise<unknown> {
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
    return text === '' ? undefined : JSON.parse(text);
  } catch {
    throw new Error(`workflow receiver answered ${res.status} with a body that is not JSON`);
  }
}
