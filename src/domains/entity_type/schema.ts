import { Type } from '@sinclair/typebox';
import { Id, NameStr, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { ProjectRead } from '../project/schema.ts';

const fields = {
  id: Type.Optional(Id()),
  name: Type.Optional(NameStr()),
  description: Opt(Type.String()),
  // A JavaScript regular expression and a JSONPath (see extract.ts); both are checked when saved.
  jpath: Opt(Type.String()),
  regular_expression: Opt(Type.String()),
  global_find: Type.Optional(Type.Boolean()),
  enabled: Type.Optional(Type.Boolean()),
};

export const EntityTypeCreate = Type.Object({ ...fields, project: RefShape(ProjectRead) }, { title: 'EntityTypeCreate', additionalProperties: false });
export const EntityTypeUpdate = Type.Object(fields, { title: 'EntityTypeUpdate', additionalProperties: false });
export const EntityTypeRead = Type.Object(
  { ...fields, id: Id(), name: NameStr(), global_find: Type.Boolean(), enabled: Type.Boolean(), project: ProjectRead },
  { title: 'EntityTypeRead' },
);
export const EntityTypePagination = Pagination(EntityTypeRead, 'EntityTypePagination');
