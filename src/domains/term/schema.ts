import { Type } from '@sinclair/typebox';
import { Id, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { DefinitionRead } from '../definition/schema.ts';
import { ProjectRead } from '../project/schema.ts';

const fields = {
  id: Type.Optional(Id()),
  text: Opt(Type.String()),
  discoverable: Type.Optional(Type.Boolean({ default: true })),
  // Definitions are named by id or text; they must exist.
  definitions: Type.Optional(Type.Array(RefShape(DefinitionRead), { default: [] })),
};

export const TermCreate = Type.Object({ ...fields, project: RefShape(ProjectRead) }, { title: 'TermCreate', additionalProperties: false });
export const TermUpdate = Type.Object(fields, { title: 'TermUpdate', additionalProperties: false });
export const TermRead = Type.Object(
  { ...fields, id: Id(), discoverable: Type.Boolean({ default: true }), definitions: Type.Array(DefinitionRead, { default: [] }) },
  { title: 'TermRead' },
);
export const TermPagination = Pagination(TermRead, 'TermPagination');
