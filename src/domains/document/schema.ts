import { Type } from '@sinclair/typebox';
import { DateTime, Id, NameStr, Nullable, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { ProjectRead } from '../project/schema.ts';
import { Filters, SearchFilterRead } from '../search_filter/schema.ts';
import { evergreenInput, evergreenRead } from './evergreen.ts';

const fields = {
  name: NameStr(),
  description: Opt(Type.String()),
  resource_id: Opt(Type.String()),
  resource_type: Opt(Type.String()),
  weblink: Opt(Type.String()),
  // Accepted (clients send reads back) and ignored: the server keeps its own timestamps.
  created_at: Opt(DateTime()),
  updated_at: Opt(DateTime()),
};

export const DocumentCreate = Type.Object(
  { ...fields, ...evergreenInput, filters: Filters({ empty: true }), project: RefShape(ProjectRead) },
  { title: 'DocumentCreate', additionalProperties: false },
);
export const DocumentUpdate = Type.Object({ ...fields, ...evergreenInput, filters: Filters() }, { title: 'DocumentUpdate', additionalProperties: false });
export const DocumentRead = Type.Object(
  {
    id: Id(),
    ...fields,
    created_at: Nullable(DateTime()),
    updated_at: Nullable(DateTime()),
    ...evergreenRead,
    filters: Type.Array(SearchFilterRead, { default: [] }),
    project: ProjectRead,
  },
  { title: 'DocumentRead' },
);
export const DocumentPagination = Pagination(DocumentRead, 'DocumentPagination');
