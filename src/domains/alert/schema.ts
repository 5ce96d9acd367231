import { Type } from '@sinclair/typebox';
import { Id, Nullable, Opt } from '../../server/shapes.ts';

// One shape for create, update and read, as the contract has it; alerts carry no project.
const fields = {
  id: Type.Optional(Id()),
  name: Type.Optional(Type.String()),
  description: Opt(Type.String()),
  external_link: Opt(Type.String()),
  originator: Opt(Type.String()),
};

export const AlertCreate = Type.Object(fields, { title: 'AlertCreate', additionalProperties: false });
export const AlertUpdate = Type.Object(fields, { title: 'AlertUpdate', additionalProperties: false });
export const AlertRead = Type.Object({ ...fields, id: Id(), name: Nullable(Type.String()) }, { title: 'AlertRead' });
// Alerts have no list operation; the mechanism still wants a pagination shape.
export const AlertPagination = Type.Object({ items: Type.Array(AlertRead) }, { title: 'AlertPagination' });
