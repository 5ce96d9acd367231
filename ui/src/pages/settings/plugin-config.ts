// A plugin's configuration form is made from its JSON Schema (`configuration_schema`): one input per
// top-level property. Secrets (`writeOnly`) come back from the API masked; sending the mask back
// keeps the stored secret (docs/plugins.md, Secrets), so the form starts with what the API gave.

export const MASK = '**********';

export interface ConfigField {
  name: string;
  label: string;
  description?: string;
  kind: 'text' | 'secret' | 'number' | 'bool' | 'select' | 'json';
  required: boolean;
  options?: string[];
  default?: unknown;
}

interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  title?: string;
  enum?: unknown[];
  writeOnly?: boolean;
  default?: unknown;
  anyOf?: JsonSchema[];
}

const typeOf = (s: JsonSchema): string | undefined => {
  if (Array.isArray(s.type)) return s.type.find((t) => t !== 'null');
  if (s.type) return s.type;
  return s.anyOf?.map(typeOf).find((t) => t && t !== 'null');
};

/** The inputs of a configuration schema, in its order; none when it takes no configuration. */
export function configFields(schema: unknown): ConfigField[] {
  const s = schema as JsonSchema | null | undefined;
  if (!s?.properties) return [];
  return Object.entries(s.properties).map(([name, p]) => {
    const type = typeOf(p);
    const kind: ConfigField['kind'] = p.writeOnly
      ? 'secret'
      : Array.isArray(p.enum)
        ? 'select'
        : type === 'boolean'
          ? 'bool'
          : type === 'integer' || type === 'number'
            ? 'number'
            : type === 'object' || type === 'array'
              ? 'json'
              : 'text';
    return {
      name,
      label: p.title ?? name.replace(/_/g, ' ').replace(/^./, (c) => c.toUpperCase()),
      description: p.description,
      kind,
      required: (s.required ?? []).includes(name),
      options: Array.isArray(p.enum) ? p.enum.map(String) : undefined,
      default: p.default,
    };
  });
}

export type ConfigValues = Record<string, unknown>;

/** The form's starting values: the instance's configuration, else the schema's defaults. JSON fields as text. */
export function configValues(fields: ConfigField[], configuration: Record<string, unknown> | null | undefined): ConfigValues {
  const values: ConfigValues = {};
  for (const f of fields) {
    const value = configuration?.[f.name] ?? f.default;
    values[f.name] = f.kind === 'json' ? (value === undefined ? '' : JSON.stringify(value, null, 2)) : f.kind === 'bool' ? Boolean(value) : (value ?? '');
  }
  return values;
}

/** The configuration a form sends: empty fields left out, JSON fields parsed (a field that is not JSON throws, naming it). */
export function configBody(fields: ConfigField[], values: ConfigValues): Record<string, unknown> {
  const body: Record<string, unknown> = {};
  for (const f of fields) {
    const value = values[f.name];
    if (value === '' || value === undefined || value === null) continue;
    if (f.kind === 'json') {
      try {
        body[f.name] = JSON.parse(String(value));
      } catch {
        throw new Error(`${f.label} is not valid JSON.`);
      }
    } else body[f.name] = value;
  }
  return body;
}
