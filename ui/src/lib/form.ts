// Forms are checked in the browser against the same TypeBox shapes the API validates bodies with
// (src/domains/<name>/schema.ts), through ajv, so a form says what is wrong before it is sent and
// the two never disagree. The API still checks; its `detail` is shown when it refuses.
import { ajvResolver } from '@hookform/resolvers/ajv';
import type { TSchema } from '@sinclair/typebox';
import type { FieldValues, Resolver } from 'react-hook-form';

/** A react-hook-form resolver for a TypeBox shape. */
export function shapeResolver<T extends FieldValues>(shape: TSchema): Resolver<T> {
  // strict off: TypeBox shapes carry keywords of their own (e.g. `default` on nested refs, `title`).
  const check = ajvResolver(shape as never, { strict: false, allErrors: true }) as unknown as Resolver<T>;
  // Checked as it will be sent: fields left empty are not sent at all.
  return (values, context, options) => check(withoutEmpty(values) as T, context, options);
}

/** Drops empty strings and undefined, as a person leaving a field empty means "not given". */
export function withoutEmpty<T extends Record<string, unknown>>(values: T): Partial<T> {
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(values)) if (value !== '' && value !== undefined) out[key] = value;
  return out as Partial<T>;
}
