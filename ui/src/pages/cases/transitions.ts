// Which status moves the case page offers, and the update body that carries a change. The API lets a
// case move between any two statuses (docs/cases.md); the page offers the usual way forward
// (New → Triage → Escalated / Stable → Closed) as buttons and every other move as "move back".
// Escalated with no incident yet goes through the escalate endpoint (an incident form), Closed through
// a form for the resolution.
import type { Case, CaseStatus } from './types.ts';
import { CASE_STATUSES } from './types.ts';

export interface Transition {
  to: CaseStatus;
  label: string;
  /** Forward along the lifecycle, or back (reopening). */
  direction: 'forward' | 'back';
  /** How the move is made: a plain update, the escalate form, or the close form. */
  via: 'update' | 'escalate' | 'close';
}

const STAGE: Record<CaseStatus, number> = { New: 0, Triage: 1, Escalated: 2, Stable: 3, Closed: 4 };

const LABEL: Record<CaseStatus, string> = {
  New: 'Back to New',
  Triage: 'Triage',
  Escalated: 'Escalate',
  Stable: 'Mark stable',
  Closed: 'Close',
};

/** Every move from `status` (all other statuses), forward ones first, in lifecycle order. */
export function transitionsFrom(status: CaseStatus | null | undefined, opts: { hasIncident: boolean }): Transition[] {
  const from = status ?? 'New';
  return CASE_STATUSES.filter((to) => to !== from)
    .map((to): Transition => {
      const direction = STAGE[to] > STAGE[from] ? 'forward' : 'back';
      const via = to === 'Escalated' && !opts.hasIncident ? 'escalate' : to === 'Closed' ? 'close' : 'update';
      const label = from === 'Closed' ? `Reopen as ${to}` : direction === 'back' && to !== 'New' ? `Back to ${to}` : LABEL[to];
      return { to, label, direction, via };
    })
    .sort((a, b) => (a.direction === b.direction ? 0 : a.direction === 'forward' ? -1 : 1));
}

/** Changes a person makes to a case, in the API's names. */
export interface CaseChanges {
  title?: string;
  description?: string;
  status?: CaseStatus;
  visibility?: string;
  resolution?: string;
  resolution_reason?: string | null;
  case_type?: string;
  case_priority?: string;
  case_severity?: string;
  /** The assignee's email. */
  assignee?: string;
  /** The reporter's email (sent only when it changes: Dispatch's update body has no reporter). */
  reporter?: string;
  related?: number[];
  duplicates?: number[];
  incidents?: number[];
  tags?: number[];
}

/**
 * The CaseUpdate body for `changes` to `c`. The API replaces tags, related, duplicates and incidents
 * with what the body holds (omitting them clears them), and wants the assignee, so the body carries
 * everything the case has, changed where asked.
 */
export function updateBody(c: Case, changes: CaseChanges): Record<string, unknown> {
  const ids = (list: { id: number }[] | undefined) => (list ?? []).map(({ id }) => ({ id }));
  const assignee = changes.assignee ?? c.assignee?.individual?.email;
  const body: Record<string, unknown> = {
    title: changes.title ?? c.title,
    description: changes.description ?? c.description ?? '',
    status: changes.status ?? c.status ?? 'New',
    visibility: changes.visibility ?? c.visibility ?? 'Open',
    resolution: changes.resolution ?? c.resolution ?? undefined,
    resolution_reason: 'resolution_reason' in changes ? changes.resolution_reason : (c.resolution_reason ?? undefined),
    case_type: { name: changes.case_type ?? c.case_type?.name },
    case_priority: { name: changes.case_priority ?? c.case_priority?.name },
    case_severity: { name: changes.case_severity ?? c.case_severity?.name },
    tags: changes.tags ? changes.tags.map((id) => ({ id })) : ids(c.tags),
    related: changes.related ? changes.related.map((id) => ({ id })) : ids(c.related),
    duplicates: changes.duplicates ? changes.duplicates.map((id) => ({ id })) : ids(c.duplicates),
    incidents: changes.incidents ? changes.incidents.map((id) => ({ id })) : ids(c.incidents),
  };
  if (assignee) body.assignee = { individual: { email: assignee } };
  if (changes.reporter) body.reporter = { individual: { email: changes.reporter } };
  for (const key of Object.keys(body)) if (body[key] === undefined) delete body[key];
  return body;
}

const words = (v: unknown): string => {
  if (v === undefined || v === null) return '';
  if (Array.isArray(v)) return v.map(words).join(', ');
  if (typeof v === 'object') {
    const o = v as { name?: string; id?: number; individual?: { email?: string } };
    return o.individual?.email ?? o.name ?? String(o.id ?? '');
  }
  return String(v);
};

const LABELS: Record<string, string> = {
  title: 'Title',
  description: 'Description',
  status: 'Status',
  visibility: 'Visibility',
  resolution: 'Resolution',
  resolution_reason: 'Resolution reason',
  case_type: 'Type',
  case_priority: 'Priority',
  case_severity: 'Severity',
  assignee: 'Assignee',
  reporter: 'Reporter',
  tags: 'Tags',
  related: 'Related cases',
  duplicates: 'Duplicates',
  incidents: 'Incidents',
};

/** An update body's fields as people read them, to tell whose change is whose. */
export const describeCase = (body: Record<string, unknown>): Record<string, string> =>
  Object.fromEntries(Object.entries(LABELS).map(([key, label]) => [label, words(body[key])]));
