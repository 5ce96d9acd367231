// What a filter expression matches, shown before it is saved. The API runs a saved filter's
// expression with the same compiler and over the same fields as the instance list's `filter`
// parameter (src/domains/signal/filters.ts instanceList), so the preview asks the list itself:
// the project's newest instances, and the newest of them that the expression matches. An
// expression the API cannot run answers 422 with the same words it would answer on save.
import type { ListParams } from '../../api/list.ts';
import type { FilterSpec } from '../../lib/filters.ts';

export type Parsed = { ok: true; expression: unknown[] } | { ok: false; error: string };

/** The editor's text as an expression: a JSON list of conditions (empty: every instance). */
export function parseExpression(text: string): Parsed {
  if (text.trim() === '') return { ok: true, expression: [] };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    return { ok: false, error: `Not JSON: ${(error as Error).message}` };
  }
  if (!Array.isArray(value))
    return { ok: false, error: 'An expression is a JSON list of conditions, e.g. [{"model": "Entity", "field": "value", "value": "db-1"}].' };
  if (value.some((v) => typeof v !== 'object' || v === null || Array.isArray(v))) return { ok: false, error: 'Each condition of the list is an object.' };
  return { ok: true, expression: value };
}

/** The list requests of a preview over the `size` newest instances of the project. */
export function previewRequests(expression: unknown[], projectId: number, size: number): { recent: ListParams; matching: ListParams } {
  const inProject = { field: 'project_id', op: '==', value: projectId };
  const newest = { page: 1, itemsPerPage: size, sortBy: 'created_at', descending: true };
  return {
    recent: { ...newest, filter: [inProject] as unknown as FilterSpec },
    // A list is an implicit AND: the expression's conditions and the project's.
    matching: { ...newest, filter: [...expression, inProject] as unknown as FilterSpec },
  };
}

/**
 * The recent instances, each marked whether the expression matches it. Both lists are the newest
 * first in the same order, so every matching recent instance is among the `size` newest matches.
 */
export function markMatches<T extends { id: string }>(recent: T[], matching: { id: string }[]): { instance: T; matches: boolean }[] {
  const hit = new Set(matching.map((m) => m.id));
  return recent.map((instance) => ({ instance, matches: hit.has(instance.id) }));
}

/** Conditions to start from, inserted by the editor. */
export const CONDITION_TEMPLATES: { label: string; condition: Record<string, unknown> }[] = [
  { label: 'An entity has this value', condition: { model: 'Entity', field: 'value', op: '==', value: 'db-1' } },
  { label: 'An entity of this type', condition: { model: 'EntityType', field: 'name', op: '==', value: 'Host' } },
  { label: 'The raw document contains', condition: { field: 'raw', op: 'ilike', value: '%"severity": "low"%' } },
  { label: 'The signal variant is', condition: { model: 'Signal', field: 'variant', op: '==', value: 'variant' } },
  {
    label: 'Any of several (or)',
    condition: {
      or: [
        { model: 'Entity', field: 'value', op: '==', value: 'a' },
        { model: 'Entity', field: 'value', op: '==', value: 'b' },
      ],
    },
  },
  { label: 'Not (not)', condition: { not: [{ model: 'Entity', field: 'value', op: '==', value: 'test' }] } },
];

/** The expression text with `condition` appended (the text as it is when it does not parse). */
export function withCondition(text: string, condition: Record<string, unknown>): string {
  const parsed = parseExpression(text);
  if (!parsed.ok) return text;
  return JSON.stringify([...parsed.expression, condition], null, 2);
}
