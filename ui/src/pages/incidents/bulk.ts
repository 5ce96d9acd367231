// Bulk changes as Dispatch's UI makes them: for each incident, read it whole, change the field, and
// PUT the record back (the API keeps what the body leaves as it was). One incident after the other,
// so a failure is the API's answer for that incident alone, shown beside its name.
import { api, orgPath } from '../../api/client.ts';
import { ifMatch } from '../../api/versions.ts';

export type BulkChange = { status: string } | { incident_priority: { name: string } } | { commander: { individual: { email: string } } };

export interface BulkFailure {
  id: number;
  name: string;
  detail: string;
}

/** The read record with `change` applied: the body of the PUT. */
export function withChange(record: Record<string, unknown>, change: BulkChange): Record<string, unknown> {
  return { ...record, ...change };
}

type Step = (id: number) => Promise<unknown>;

/** Runs `step` for each id in turn; answers the failures, each with the API's detail. */
export async function eachIncident(ids: number[], nameOf: (id: number) => string, step: Step, onDone?: (done: number) => void): Promise<BulkFailure[]> {
  const failures: BulkFailure[] = [];
  for (const [index, id] of ids.entries()) {
    try {
      await step(id);
    } catch (error) {
      failures.push({ id, name: nameOf(id), detail: error instanceof Error ? error.message : String(error) });
    }
    onDone?.(index + 1);
  }
  return failures;
}

export const updateStep =
  (organization: string, change: BulkChange): Step =>
  async (id) => {
    const path = orgPath(organization, `/incidents/${id}`);
    const record = await api<Record<string, unknown>>(path);
    // Conditional on the version just read: a colleague's save in between fails this one (412) instead of being undone.
    return api(path, { method: 'PUT', body: withChange(record, change), headers: ifMatch(path, record) });
  };

export const deleteStep =
  (organization: string): Step =>
  (id) =>
    api(orgPath(organization, `/incidents/${id}`), { method: 'DELETE' });
