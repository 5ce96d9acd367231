// A signal filter's form values and the create/update bodies they become.
import { FieldProblem, localInputFromUtc, textOrNull, utcFromLocalInput } from './form-body.ts';
import { parseExpression } from './preview.ts';
import type { Ref, SignalFilter } from './types.ts';

export interface FilterValues {
  name: string;
  description: string;
  project: Ref | null;
  action: 'snooze' | 'deduplicate';
  mode: 'active' | 'monitor' | 'inactive' | 'expired';
  /** Seconds a deduplicate filter looks back. */
  window: number | string;
  /** A `datetime-local` value, in UTC. */
  expiration: string;
  /** The expression as JSON text. */
  expression: string;
}

export const emptyFilter = (project: Ref | null): FilterValues => ({
  name: '',
  description: '',
  project,
  action: 'snooze',
  mode: 'active',
  window: 600,
  expiration: '',
  expression: '[]',
});

export function filterValues(f: SignalFilter, project: Ref | null): FilterValues {
  return {
    name: f.name,
    description: f.description ?? '',
    project,
    action: f.action,
    mode: f.mode,
    window: f.window,
    expiration: localInputFromUtc(f.expiration),
    expression: JSON.stringify(f.expression, null, 2),
  };
}

/** The body of a create (`id` undefined) or an update (which keeps the filter in its project). */
export function filterBody(v: FilterValues, id?: number): Record<string, unknown> {
  const parsed = parseExpression(v.expression);
  if (!parsed.ok) throw new FieldProblem('expression', parsed.error);
  const window = typeof v.window === 'number' ? v.window : Number.parseInt(v.window, 10);
  const body: Record<string, unknown> = {
    name: v.name,
    description: textOrNull(v.description),
    expression: parsed.expression,
    action: v.action,
    mode: v.mode,
    window: Number.isNaN(window) ? v.window : window,
    expiration: utcFromLocalInput(v.expiration),
  };
  if (id === undefined) {
    body.project = v.project ? { id: v.project.id } : undefined;
    for (const key of Object.keys(body)) if (body[key] === null) delete body[key];
  } else body.id = id;
  return body;
}
