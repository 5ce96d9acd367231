// The "New case" form's fields and the CaseCreate body they make. The form is checked against the
// API's own CaseCreate shape (through shapeResolver), on the body it will send, so the two agree.
import type { FieldErrors, Resolver } from 'react-hook-form';
import { shapeResolver } from '../../lib/form.ts';
import { CaseCreate } from '../../../../src/app/ui-shapes.ts';

export interface NewCaseFields {
  title: string;
  description: string;
  project: string;
  case_type: string;
  case_priority: string;
  case_severity: string;
  visibility: string;
  assignee: string;
}

export const NEW_CASE_DEFAULTS: NewCaseFields = {
  title: '',
  description: '',
  project: '',
  case_type: '',
  case_priority: '',
  case_severity: '',
  visibility: '',
  assignee: '',
};

/** The body for the fields: what is left empty is not sent, and the project's defaults apply. */
export function newCaseBody(fields: NewCaseFields): Record<string, unknown> {
  const body: Record<string, unknown> = { title: fields.title.trim() };
  if (fields.description.trim()) body.description = fields.description;
  for (const key of ['project', 'case_type', 'case_priority', 'case_severity'] as const) if (fields[key]) body[key] = { name: fields[key] };
  if (fields.visibility) body.visibility = fields.visibility;
  if (fields.assignee.trim()) body.assignee = { individual: { email: fields.assignee.trim() } };
  return body;
}

const check = shapeResolver<Record<string, unknown>>(CaseCreate);

/** Validates the body the fields make; an error on a nested path (`assignee.individual.email`) is the field's. */
export const newCaseResolver: Resolver<NewCaseFields> = async (values, context, options) => {
  const body = newCaseBody(values);
  const result = await check(body, context, options as never);
  const errors: FieldErrors<NewCaseFields> = {};
  for (const [key, error] of Object.entries(result.errors)) {
    const message = firstMessage(error) ?? 'Not valid';
    errors[key as keyof NewCaseFields] = { type: 'shape', message };
  }
  // A title of spaces passes the shape but is not a title.
  if (!body.title) errors.title = { type: 'required', message: 'Enter a title' };
  return Object.keys(errors).length ? { values: {}, errors } : { values, errors: {} };
};

/** The first message in a (possibly nested) react-hook-form error. */
function firstMessage(error: unknown): string | undefined {
  if (!error || typeof error !== 'object') return undefined;
  const message = (error as { message?: unknown }).message;
  if (typeof message === 'string' && message) return message;
  for (const [key, inner] of Object.entries(error)) {
    const found = key === 'ref' ? undefined : firstMessage(inner);
    if (found) return found;
  }
  return undefined;
}
