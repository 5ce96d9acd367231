import { Type } from '@sinclair/typebox';
import { NameStr, Pagination, RefShape } from '../../server/shapes.ts';
import { evergreenInput, evergreenRead } from '../document/evergreen.ts';
import { contactFields, contactRead } from '../individual/schema.ts';
import { ProjectRead } from '../project/schema.ts';
import { Filters } from '../search_filter/schema.ts';

const fields = { ...contactFields, name: NameStr(), ...evergreenInput, filters: Filters({ empty: true }) };

export const TeamContactCreate = Type.Object({ ...fields, project: RefShape(ProjectRead) }, { title: 'TeamContactCreate', additionalProperties: false });
export const TeamContactUpdate = Type.Object(fields, { title: 'TeamContactUpdate', additionalProperties: false });
export const TeamContactRead = Type.Object({ ...fields, ...evergreenRead, ...contactRead }, { title: 'TeamContactRead' });
export const TeamPagination = Pagination(TeamContactRead, 'TeamPagination');
