// An instance's configuration against its plugin's schema: checked with Ajv, refused with 422
// items naming each field (`["body", "configuration", "<field>"]`), the way request bodies are.
// A plugin that declares no schema (or is not loaded here) takes `{}`.
import type { TObject } from '@sinclair/typebox';
import { Ajv, type ValidateFunction } from 'ajv';
import type { Configuration } from '../../plugins/types.ts';
import { validationError, type ValidationItem } from '../../server/errors.ts';
import { toValidationItems } from '../../server/validation.ts';

/** An address with a dotted domain (`ops@example.com`). */
const ADDRESS = '[^\\s@<>",;]+@[^\\s@<>",;.]+(?:\\.[^\\s@<>",;.]+)+';

/**
 * An e-mail address, bare or with a display name as a From or To header writes it
 * (`Muster <muster@example.com>`): what mail transports take for one mailbox.
 */
export const MAILBOX = new RegExp(`^(?:${ADDRESS}|[^<>@]*<${ADDRESS}>)$`);

// Formats plugins are likely to use; any other format is not checked.
const ajv = new Ajv({
  allErrors: true,
  useDefaults: true,
  strict: false,
  logger: false,
  formats: {
    uri: (v: string) => URL.canParse(v),
    email: MAILBOX,
  },
});

const compiled = new WeakMap<TObject, ValidateFunction>();

function validatorOf(schema: TObject): ValidateFunction {
  let validate = compiled.get(schema);
  if (!validate) {
    validate = ajv.compile(schema);
    compiled.set(schema, validate);
  }
  return validate;
}

const LOC = ['body', 'configuration'];

/** What is wrong with `config` under `schema`; empty when nothing is. */
export function configurationProblems(config: Configuration, schema: TObject | undefined): ValidationItem[] {
  if (!schema) {
    return Object.keys(config).map((field) => ({ loc: [...LOC, field], msg: 'extra fields not permitted', type: 'value_error.extra' }));
  }
  const validate = validatorOf(schema);
  if (validate(config)) return [];
  // toValidationItems places the errors under `body`; the configuration sits one level further in.
  return toValidationItems(validate.errors ?? [], 'body').map((item) => ({ ...item, loc: [...LOC, ...item.loc.slice(1)] }));
}

/** Throws the 422 when `config` does not satisfy `schema`. */
export function checkConfiguration(config: Configuration, schema: TObject | undefined): void {
  const problems = configurationProblems(config, schema);
  if (problems.length) throw validationError(problems);
}

/**
 * The schema as plain JSON Schema for API callers: TypeBox's symbol keys left behind, and the
 * server's own rules (`x-secret-bound`, enforced on save) too.
 */
export const jsonSchemaOf = (schema: TObject | undefined): unknown =>
  schema ? JSON.parse(JSON.stringify(schema, (k, v) => (k === 'x-secret-bound' ? undefined : v))) : null;
