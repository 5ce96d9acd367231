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

/** A resolver that checks `toBody(values)` against `shape`; a valid form submits the body. */
export function bodyResolver<F extends FieldValues>(shape: TSchema, toBody: (values: F) => Record<string, unknown>): Resolver<F> {
  const check = shapeResolver<FieldValues>(shape);
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
