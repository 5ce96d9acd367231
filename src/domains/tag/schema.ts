import { Type } from '@sinclair/typebox';
import { Id, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { ProjectRead } from '../project/schema.ts';
import { TagTypeCreate, TagTypeRead, TagTypeUpdate } from '../tag_type/schema.ts';

const fields = {
  id: Type.Optional(Id()),
  name: Opt(Type.String()),
  description: Opt(Type.String()),
  uri: Opt(Type.String()),
  source: Opt(Type.String()),
  external_id: Opt(Type.String()),
  discoverable: Type.Optional(Type.Boolean({ default: true })),
};

export const TagCreate = Type.Object(
  { ...fields, tag_type: RefShape(TagTypeCreate), project: RefShape(ProjectRead) },
  { title: 'TagCreate', additionalProperties: false },
);
export const TagUpdate = Type.Object({ ...fields, tag_type: Type.Optional(RefShape(TagTypeUpdate)) }, { title: 'TagUpdate', additionalProperties: false });
export const TagRead = Type.Object(
  { ...fields, id: Id(), discoverable: Type.Boolean({ default: true }), tag_type: Opt(TagTypeRead), project: ProjectRead },
  { title: 'TagRead' },
);
export const TagPagination = Pagination(TagRead, 'TagPagination');
