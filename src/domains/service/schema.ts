import { Type } from '@sinclair/typebox';
import { DateTime, Id, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { evergreenInput, evergreenRead } from '../document/evergreen.ts';
import { ProjectRead } from '../project/schema.ts';
import { Filters, SearchFilterRead } from '../search_filter/schema.ts';

const fields = {
  name: Opt(Type.String()),
  description: Opt(Type.String()),
  external_id: Opt(Type.String()),
  /** The slug of the on-call plugin that pages this service. */
  type: Opt(Type.String()),
  is_active: Type.Optional(Type.Boolean()),
};

const filters = () => Filters({ empty: true });

export const ServiceCreate = Type.Object(
  { ...fields, ...evergreenInput, filters: filters(), project: RefShape(ProjectRead) },
  { title: 'ServiceCreate', additionalProperties: false },
);
export const ServiceUpdate = Type.Object({ ...fields, ...evergreenInput, filters: filters() }, { title: 'ServiceUpdate', additionalProperties: false });
export const ServiceRead = Type.Object(
  {
    id: Id(),
    ...fields,
    is_active: Type.Boolean(),
    ...evergreenRead,
    filters: Type.Array(SearchFilterRead, { default: [] }),
    created_at: DateTime(),
    updated_at: DateTime(),
  },
  { title: 'ServiceRead' },
);
export const ServicePagination = Pagination(ServiceRead, 'ServicePagination');
