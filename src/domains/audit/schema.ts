// The shapes of the audit log as Owners read it (beyond 0.1.0: Dispatch has no audit log).
import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Defaulted, ListQuery, Nullable, Pagination } from '../../server/shapes.ts';

export const AuditEntryRead = Type.Object(
  {
    id: Type.Integer(),
    occurred_at: DateTime(),
    action: Type.String(),
    actor_user_id: Nullable(Type.Integer()),
    actor_email: Nullable(Type.String()),
    actor_token_id: Nullable(Type.Integer()),
    address: Nullable(Type.String()),
    target_type: Nullable(Type.String()),
    target_id: Nullable(Type.String()),
    target_label: Nullable(Type.String()),
    before: Type.Unknown(),
    after: Type.Unknown(),
    details: Type.Unknown(),
  },
  { title: 'AuditEntryRead' },
);
export type AuditEntryReadT = Static<typeof AuditEntryRead>;

export const AuditEntryPagination = Pagination(AuditEntryRead, 'AuditEntryPagination');

/** The filters an Owner reaches for, beside the list engine's `filter` grammar. */
const AuditFilters = {
  /** One action (`plugin_instance.updated`), or every action of a subject (`plugin_instance.*`). */
  action: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  /** The actor's e-mail address, whole (any case). */
  actor: Type.Optional(Type.String({ minLength: 1, maxLength: 320 })),
  target_type: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  target_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  /** Entries at or after this time. */
  since: Type.Optional(DateTime()),
  /** Entries before this time. */
  until: Type.Optional(DateTime()),
};

export const AuditListQuery = Type.Object({ ...ListQuery.properties, ...AuditFilters });
export type AuditListQueryT = Static<typeof AuditListQuery>;

export const EXPORT_FORMATS = ['jsonl', 'csv'] as const;
export type ExportFormat = (typeof EXPORT_FORMATS)[number];

export const AuditExportQuery = Type.Object({
  format: Defaulted(Type.Unsafe<ExportFormat>({ type: 'string', enum: [...EXPORT_FORMATS], default: 'jsonl' })),
  q: ListQuery.properties.q,
  filter: ListQuery.properties.filter,
  ...AuditFilters,
});
export type AuditExportQueryT = Static<typeof AuditExportQuery>;
