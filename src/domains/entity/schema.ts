import { Type } from '@sinclair/typebox';
import { Id, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { EntityTypeCreate, EntityTypeRead, EntityTypeUpdate } from '../entity_type/schema.ts';
import { ProjectRead } from '../project/schema.ts';

const fields = {
  id: Type.Optional(Id()),
  name: Opt(Type.String()),
  description: Opt(Type.String()),
  value: Opt(Type.String()),
  source: Opt(Type.String()),
};

export const EntityCreate = Type.Object(
  { ...fields, entity_type: RefShape(EntityTypeCreate), project: RefShape(ProjectRead) },
  { title: 'EntityCreate', additionalProperties: false },
);
export const EntityUpdate = Type.Object(
  { ...fields, entity_type: Type.Optional(RefShape(EntityTypeUpdate)) },
  { title: 'EntityUpdate', additionalProperties: false },
);
export const EntityRead = Type.Object({ ...fields, id: Id(), entity_type: EntityTypeRead, project: ProjectRead }, { title: 'EntityRead' });
export const EntityPagination = Pagination(EntityRead, 'EntityPagination');
