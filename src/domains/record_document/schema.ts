import { Type, type Static } from '@sinclair/typebox';
import { DateTime, Id } from '../../server/shapes.ts';

/** A document's text as Muster keeps it, and the version an edit must name. */
export const DocumentContentRead = Type.Object(
  {
    id: Id(),
    name: Type.String(),
    resource_type: Type.Union([Type.String(), Type.Null()]),
    content: Type.String(),
    version: Type.Integer(),
    read_only: Type.Boolean(),
    updated_at: DateTime(),
  },
  { title: 'DocumentContentRead' },
);

/** An edit: the whole new text, and the version it was made from (a newer one on the server is a conflict, 409). */
export const DocumentContentUpdate = Type.Object(
  { content: Type.String({ maxLength: 1_000_000 }), version: Type.Integer({ minimum: 1 }) },
  { title: 'DocumentContentUpdate', additionalProperties: false },
);

export const DocumentRevisionRead = Type.Object(
  { version: Type.Integer(), author: Type.String(), created_at: DateTime(), content: Type.String() },
  { title: 'DocumentRevisionRead' },
);
export const DocumentRevisions = Type.Array(DocumentRevisionRead, { title: 'DocumentRevisions' });

export const DocumentExportQuery = Type.Object(
  { format: Type.Union([Type.Literal('markdown'), Type.Literal('pdf')], { default: 'markdown' }) },
  { additionalProperties: false },
);

export type DocumentContentReadT = Static<typeof DocumentContentRead>;
export type DocumentContentUpdateT = Static<typeof DocumentContentUpdate>;
