// Form values <-> request bodies for a declared section. Pure, so tests pin what is sent: a new
// record's fields start from the shape's defaults; a cleared field is left out of a create and sent
// as null on an update where the shape allows null (clearing a description clears it); pickers send
// `{id}`.
import type { TSchema } from '@sinclair/typebox';
import type { FieldDecl, Row, SectionDecl } from './declaration.ts';

export type Mode = 'create' | 'update';
export type FormValues = Record<string, unknown>;

const propertyOf = (shape: TSchema, name: string): Record<string, unknown> | undefined =>
  (shape as { properties?: Record<string, Record<string, unknown>> }).properties?.[name];

/** The shape of a mode requires the field. */
export const requiredIn = (shape: TSchema, name: string): boolean => ((shape as { required?: string[] }).required ?? []).includes(name);

/** The fields a form of this mode shows. */
export const fieldsFor = (decl: SectionDecl, mode: Mode): FieldDecl[] => decl.fields.filter((f) => mode === 'create' || !f.createOnly);

const empty = (field: FieldDecl): unknown => (field.kind === 'bool' ? false : '');

/** What a form starts with: the record's values on an edit, the shape's defaults on a create. */
export function initialValues(decl: SectionDecl, mode: Mode, row?: Row, project?: number | null): FormValues {
  const shape = mode === 'create' ? decl.create : decl.update;
  const values: FormValues = {};
  for (const field of fieldsFor(decl, mode)) {
    if (mode === 'update' && row) {
      const value = row[field.name];
      if (field.kind === 'picker') values[field.name] = value && typeof value === 'object' ? { id: (value as Row).id } : '';
      else if (field.kind === 'bool') values[field.name] = value ?? field.initial ?? propertyOf(shape, field.name)?.default ?? false;
      else values[field.name] = value ?? '';
    } else {
      values[field.name] = propertyOf(shape, field.name)?.default ?? field.initial ?? empty(field);
    }
  }
  if (mode === 'create' && decl.projectScoped) values.project = project ? { id: project } : '';
  return values;
}

const isBlank = (value: unknown) => value === '' || value === undefined || value === null;

/** The body a form's values make. */
export function bodyOf(decl: SectionDecl, mode: Mode, values: FormValues, organization: string, row?: Row): Record<string, unknown> {
  const shape = mode === 'create' ? decl.create : decl.update;
  const body: Record<string, unknown> = {};
  for (const field of fieldsFor(decl, mode)) {
    const value = values[field.name];
    if (!isBlank(value)) body[field.name] = typeof value === 'string' && field.kind !== 'textarea' ? value.trim() || value : value;
    // Cleared on an edit: null where the shape takes it, else left as it was.
    else if (mode === 'update' && row && !isBlank(row[field.name]) && propertyOf(shape, field.name)?.nullable) body[field.name] = null;
  }
  if (mode === 'create') {
    if (decl.projectScoped && !isBlank(values.project)) body.project = values.project;
    Object.assign(body, decl.createExtra?.(organization));
  } else if (row && decl.keepOnUpdate) {
    Object.assign(body, decl.keepOnUpdate(row));
  }
  return body;
}

/** A picker's value (`{id}`) as the Select's string, and back. */
export const pickedId = (value: unknown): string | null => (value && typeof value === 'object' && 'id' in value ? String((value as { id: unknown }).id) : null);
export const picked = (id: string | null): { id: number } | '' => (id ? { id: Number(id) } : '');

/** A read value as table text. */
export function cellText(value: unknown): string {
  if (value === null || value === undefined || value === '') return '-';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value === 'object') {
    const named = value as { display_name?: string; name?: string; title?: string; email?: string };
    return named.display_name || named.name || named.title || named.email || '-';
  }
  return String(value);
}
