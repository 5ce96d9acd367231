// Signal forms hold what people type (text for JSON, a local date for a time); the API's shape is
// checked against the body they become, so what the form says is wrong is what the API would refuse.
import type { TSchema } from '@sinclair/typebox';
import type { FieldValues, Resolver } from 'react-hook-form';
import { shapeResolver } from '../../lib/form.ts';

/** Thrown by a body builder when a field cannot become part of a body (JSON that does not parse). */
export class FieldProblem extends Error {
  constructor(
    readonly field: string,
    message: string,
  ) {
    super(message);
  }
}

type Node = Record<string, unknown> & { type?: unknown; properties?: Record<string, Node>; items?: Node; required?: string[] };

/** A record named in a body, as a form names it: the shape's `id` and `name`, the rest left out. */
function reference(node: Node): Node {
  if (node.type === 'array' && node.items) return { ...node, items: reference(node.items) };
  if (node.type !== 'object' || !node.properties) return node;
  const properties: Record<string, Node> = {};
  for (const key of ['id', 'name']) if (node.properties[key]) properties[key] = node.properties[key];
  return { ...node, properties, required: node.required?.filter((k) => k in properties), additionalProperties: true };
}

/**
 * The API's body shape with the records it names cut to their id and name. Read shapes nest deep
 * (a source names incidents, which name people...), and ajv compiles the shape on every check: the
 * whole of it would take seconds, and forms send only ids.
 */
export function referencesById(shape: TSchema): TSchema {
  const node = shape as unknown as Node;
  const properties = Object.fromEntries(Object.entries(node.properties ?? {}).map(([key, value]) => [key, reference(value)]));
  return { ...node, properties } as unknown as TSchema;
}

/** A resolver that checks `toBody(values)` against `shape`; a valid form submits the body. */
export function bodyResolver<F extends FieldValues>(shape: TSchema, toBody: (values: F) => Record<string, unknown>): Resolver<F> {
  const check = shapeResolver<FieldValues>(referencesById(shape));
  return async (values, context, options) => {
    let body: Record<string, unknown>;
    try {
      body = toBody(values);
    } catch (error) {
      if (!(error instanceof FieldProblem)) throw error;
      return { values: {}, errors: { [error.field]: { type: 'parse', message: error.message } } } as never;
    }
    return check(body, context, options as never) as never;
  };
}

/** A `datetime-local` value read as UTC, as an ISO time; null when empty. */
export function utcFromLocalInput(value: string): string | null {
  if (!value) return null;
  const date = new Date(`${value.length === 16 ? `${value}:00` : value}Z`);
  if (Number.isNaN(date.getTime())) throw new FieldProblem('expiration', 'Not a date and time.');
  return date.toISOString();
}

/** An ISO time as a `datetime-local` value in UTC. */
export const localInputFromUtc = (value: string | null | undefined) => (value ? new Date(value).toISOString().slice(0, 16) : '');

/** Empty text as null (a field cleared on an update), else the text. */
export const textOrNull = (value: string | null | undefined) => (value && value.trim() !== '' ? value : null);
