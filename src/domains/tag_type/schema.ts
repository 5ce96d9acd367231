import { Type } from '@sinclair/typebox';
import { Id, NameStr, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { ProjectRead } from '../project/schema.ts';

const fields = {
  name: NameStr(),
  description: Opt(Type.String()),
  exclusive: Type.Optional(Type.Boolean({ default: false })),
};

export const TagTypeCreate = Type.Object({ ...fields, project: RefShape(ProjectRead) }, { title: 'TagTypeCreate', additionalProperties: false });
export const TagTypeUpdate = Type.Object({ id: Type.Optional(Id()), ...fields }, { title: 'TagTypeUpdate', additionalProperties: false });
export const TagTypeRead = Type.Object({ id: Id(), ...fields, exclusive: Type.Boolean({ default: false }), project: ProjectRead }, { title: 'TagTypeRead' });
export const TagTypePagination = Pagination(TagTypeRead, 'TagTypePagination');
