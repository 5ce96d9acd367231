import { Type } from '@sinclair/typebox';
import { Id, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { ProjectRead } from '../project/schema.ts';

/** A term as a definition shows it. */
export const DefinitionTerm = Type.Object({ id: Type.Optional(Id()), text: Type.Optional(Type.String()) }, { title: 'DefinitionTerm' });

// Terms are named by id or text; a text not known yet in the project creates the term.
const fields = {
  text: Type.String(),
  source: Opt(Type.String()),
  terms: Type.Optional(Type.Array(RefShape(DefinitionTerm), { default: [] })),
};

export const DefinitionCreate = Type.Object({ ...fields, project: RefShape(ProjectRead) }, { title: 'DefinitionCreate', additionalProperties: false });
export const DefinitionUpdate = Type.Object(fields, { title: 'DefinitionUpdate', additionalProperties: false });
export const DefinitionRead = Type.Object({ id: Id(), ...fields, terms: Type.Array(DefinitionTerm, { default: [] }) }, { title: 'DefinitionRead' });
export const DefinitionPagination = Pagination(DefinitionRead, 'DefinitionPagination');
