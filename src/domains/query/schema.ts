import { Type } from '@sinclair/typebox';
import { Id, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { ProjectRead } from '../project/schema.ts';
import { SourceRead, SourceRef } from '../source/schema.ts';
import { TagCreate, TagRead } from '../tag/schema.ts';

const fields = {
  name: Type.Optional(Type.String()),
  description: Opt(Type.String()),
  language: Opt(Type.String()),
  text: Opt(Type.String()),
};

const bodyRefs = {
  source: SourceRef,
  project: RefShape(ProjectRead),
  tags: Type.Optional(Type.Array(RefShape(TagCreate), { default: [] })),
};

export const QueryCreate = Type.Object({ ...fields, ...bodyRefs }, { title: 'QueryCreate', additionalProperties: false });
// The contract requires `source` and `project` on update too; a query stays in its project.
export const QueryUpdate = Type.Object({ id: Type.Optional(Id()), ...fields, ...bodyRefs }, { title: 'QueryUpdate', additionalProperties: false });
export const QueryRead = Type.Object(
  { id: Id(), ...fields, name: Type.String(), source: SourceRead, project: ProjectRead, tags: Type.Array(TagRead, { default: [] }) },
  { title: 'QueryRead' },
);
export const QueryPagination = Pagination(QueryRead, 'QueryPagination');
