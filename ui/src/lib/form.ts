// Forms are checked in the browser against the same TypeBox shapes the API validates bodies with
// (src/domains/<name>/schema.ts), through ajv with the API's own formats (server/validation.ts), so a
// form says what is wrong before it is sent and the two never disagree. The API still checks; its
// `detail` is shown when it refuses.
//
// Each shape is compiled once and kept: @hookform/resolvers' ajv resolver builds a new Ajv and
// compiles the shape on every validation, 0.2 to 0.5 s for an incident's shape on each keystroke
// once a form has been submitted.
import { toNestErrors } from '@hookform/resolvers';
import type { TSchema } from '@sinclair/typebox';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import ajvErrors from 'ajv-errors';
import addFormats from 'ajv-formats';
import type { FieldError, FieldErrors, FieldValues, Resolver } from 'react-hook-form';
import { ajvOptions } from '../../../src/app/ui-shapes.ts';

let ajv: Ajv | undefined;
const compiled = new WeakMap<TSchema, ValidateFunction>();

function validatorOf(shape: TSchema): ValidateFunction {
  let validate = compiled.get(shape);
  if (validate) return validate;
  if (!ajv) {
    // strict off: TypeBox shapes carry keywords of their own (e.g. `default` on nested refs).
    ajv = new Ajv({ strict: false, allErrors: true, strictNumbers: true, formats: ajvOptions.customOptions.formats });
    addFormats(ajv);
    ajvErrors(ajv);
  }
  validate = ajv.compile(shape);
  compiled.set(shape, validate);
  return validate;
}

/** Ajv's errors as react-hook-form's, by field path (`tags.0.name`); the first error of a field wins. */
export function fieldErrors(errors: ErrorObject[]): Record<string, FieldError> {
  const out: Record<string, FieldError> = Object.create(null);
  for (const error of errors) {
    const path = error.instancePath
      .split('/')
      .slice(1)
      .map((s) => s.replace(/~1/g, '/').replace(/~0/g, '~'));
    if (error.keyword === 'required') path.push((error.params as { missingProperty: string }).missingProperty);
    const key = path.join('.');
    out[key] ??= { type: error.keyword, message: error.message };
  }
  return out;
}

/** A react-hook-form resolver for a TypeBox shape. */
export function shapeResolver<T extends FieldValues>(shape: TSchema): Resolver<T> {
  return async (values, _context, options) => {
    // Checked as it will be sent: fields left empty are not sent at all.
    const sent = withoutEmpty(values);
    const validate = validatorOf(shape);
    if (validate(structuredClone(sent))) return { values: sent as T, errors: {} };
    return { values: {}, errors: toNestErrors(fieldErrors(validate.errors ?? []), options) as FieldErrors<T> };
  };
}

/** Drops empty strings and undefined, as a person leaving a field empty means "not given". */
export function withoutEmpty<T extends Record<string, unknown>>(values: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) if (value !== '' && value !== undefined) out[key] = value;
  return out as Partial<T>;
}
