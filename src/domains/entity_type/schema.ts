import { Type } from '@sinclair/typebox';
import { Id, NameStr, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { ProjectRead } from '../project/schema.ts';

const fields = {
  id: Type.Optional(Id()),
  name: Type.Optional(NameStr()),
  description: Opt(Type.String()),
  // A regular expression in RE2 syntax (see pattern.ts) and a JSONPath (see extract.ts); both are checked when saved.
  jpath: Opt(Type.String()),
  regular_expression: Opt(Type.String()),
  global_find: Type.Optional(Type.Boolean()),
  enabled: Type.Optional(Type.Boolean()),
};

/**
 * Beyond 0.1.0, for the web UI (current Dispatch's entity type): which signal definitions use the
 * type: only the one it is attached to, any it is attached to, or all of them.
 */
export const ENTITY_SCOPES = ['single', 'multiple', 'all'] as const;
const Scope = (options: { default?: string } = {}) =>
  Type.Unsafe<(typeof ENTITY_SCOPES)[number]>({ type: 'string', enum: [...ENTITY_SCOPES], title: 'EntityScopeEnum', ...options });

export const EntityTypeCreate = Type.Object(
  { ...fields, scope: Type.Optional(Scope({ default: 'single' })), project: RefShape(ProjectRead) },
  { title: 'EntityTypeCreate', additionalProperties: false },
);
// No default on an update: an omitted scope keeps its value.
export const EntityTypeUpdate = Type.Object({ ...fields, scope: Type.Optional(Scope()) }, { title: 'EntityTypeUpdate', additionalProperties: false });
export const EntityTypeRead = Type.Object(
  { ...fields, id: Id(), name: NameStr(), global_find: Type.Boolean(), enabled: Type.Boolean(), scope: Scope(), project: ProjectRead },
  { title: 'EntityTypeRead' },
);
export const EntityTypePagination = Pagination(EntityTypeRead, 'EntityTypePagination');
