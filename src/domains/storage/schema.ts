import { Type } from '@sinclair/typebox';
import { DateTime, Id } from '../../server/shapes.ts';

/** A file of an incident or a case, without its bytes. */
export const FileRead = Type.Object(
  {
    id: Id(),
    name: Type.String(),
    /** What Muster found the bytes to be. */
    content_type: Type.String(),
    size: Type.Integer({ minimum: 0 }),
    creator: Type.String(),
    created_at: DateTime(),
  },
  { $id: 'FileRead', title: 'FileRead' },
);
