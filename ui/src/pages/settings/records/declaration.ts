// What one settings section of plain records is: where its group lives in the API, the columns of
// its table, and the fields of its form, checked against the group's own Create/Update shapes. The
// section screen (RecordSection) is the same for every group; a section is only this declaration.
import type { TSchema } from '@sinclair/typebox';
import type { ReactNode } from 'react';

export type Row = Record<string, unknown> & { id: number };

export interface ColumnDecl {
  /** The read object's field (also the list's sort field when `sortable`). */
  key: string;
  header: string;
  /** The list engine may sort on it (a field of the group's list definition). */
  sortable?: boolean;
  /** How the cell shows; default: the value as text, booleans as Yes/No. */
  render?: (row: Row) => ReactNode;
}

/** Another record picked from a list of the API, sent as `{id}`. */
export interface PickerDecl {
  /** The list's path, e.g. `/tag_types`. */
  path: string;
  /** Its items belong to a project: only those of the record's project are offered. */
  projectScoped?: boolean;
  /** Extra `filter` leaves (the list engine's grammar), e.g. only workflow plugin instances. */
  filter?: Record<string, unknown>[];
  /** How an item is named in the picker; default its `name`. */
  label?: (item: Row) => string;
}

export type FieldKind = 'text' | 'textarea' | 'email' | 'number' | 'bool' | 'color' | 'select' | 'picker';

export interface FieldDecl {
  /** The body's field. */
  name: string;
  label: string;
  kind: FieldKind;
  description?: string;
  /** Options of a `select`. */
  options?: string[];
  picker?: PickerDecl;
  /** A new record's value when the shape gives no default. */
  initial?: unknown;
  /** Shown on the create form only (the update shape does not take it). */
  createOnly?: boolean;
}

export interface SectionDecl {
  /** The URL segment under /settings. */
  key: string;
  /** The section's title (plural): "Incident priorities". */
  title: string;
  /** One record in prose, lower case: "incident priority". */
  thing: string;
  description?: string;
  /** The group's list path below /{organization}: "/incident_priorities". */
  path: string;
  /** The group's Create and Update shapes (src/domains/<name>/schema.ts). */
  create: TSchema;
  update: TSchema;
  columns: ColumnDecl[];
  fields: FieldDecl[];
  /** Records belong to a project: the table can be narrowed to one, and create sends `project`. */
  projectScoped?: boolean;
  /** The API deletes records of this group (priorities, severities and types it does not). */
  canDelete?: boolean;
  /** Fixed fields of a create body (a project's `organization`). */
  createExtra?: (organization: string) => Record<string, unknown>;
  /**
   * Fields an update sends back as they were read, so that an omitted list is not emptied (a
   * contact's search filters), mapped to what the body takes.
   */
  keepOnUpdate?: (row: Row) => Record<string, unknown>;
  /** The default sort field of the table. */
  sort?: string;
}
