import { Type, type TSchema } from '@sinclair/typebox';
import { Id, NameStr, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { ProjectRead } from '../project/schema.ts';

const fields = {
  name: NameStr(),
  description: Opt(Type.String()),
  exclusive: Type.Optional(Type.Boolean({ default: false })),
};

/**
 * Beyond 0.1.0, for the web UI (current Dispatch's tag type): which pickers offer the type's tags, by
 * the kind of record being tagged. All true unless said otherwise.
 */
export const DISCOVERABLE = ['incident', 'case', 'signal', 'query', 'source', 'document'] as const;
const discoverable = <T extends TSchema>(flag: () => T) => ({
  discoverable_incident: flag(),
  discoverable_case: flag(),
  discoverable_signal: flag(),
  discoverable_query: flag(),
  discoverable_source: flag(),
  discoverable_document: flag(),
});

export const TagTypeCreate = Type.Object(
  { ...fields, ...discoverable(() => Type.Optional(Type.Boolean({ default: true }))), project: RefShape(ProjectRead) },
  { title: 'TagTypeCreate', additionalProperties: false },
);
// No default on an update: an omitted flag keeps its value.
export const TagTypeUpdate = Type.Object(
  { id: Type.Optional(Id()), ...fields, ...discoverable(() => Type.Optional(Type.Boolean())) },
  { title: 'TagTypeUpdate', additionalProperties: false },
);
export const TagTypeRead = Type.Object(
  { id: Id(), ...fields, exclusive: Type.Boolean({ default: false }), ...discoverable(() => Type.Boolean({ default: true })), project: ProjectRead },
  { title: 'TagTypeRead' },
);
export const TagTypePagination = Pagination(TagTypeRead, 'TagTypePagination');
