import { Type } from '@sinclair/typebox';
import { DateTime, Defaulted, Id, NameStr, Opt, Pagination, RefShape } from '../../server/shapes.ts';
import { ProjectRead } from '../project/schema.ts';

/** Free-form settings of a cost type, kept as sent. */
const Details = Type.Unsafe<Record<string, unknown>>({ type: 'object', additionalProperties: true });

const fields = {
  name: NameStr(),
  description: Opt(Type.String()),
  category: Opt(Type.String()),
  details: Defaulted(Type.Unsafe<Record<string, unknown>>({ ...Details, default: {} })),
  default: Type.Optional(Type.Boolean()),
  editable: Type.Optional(Type.Boolean()),
  // In the contract's bodies; the server sets it and ignores what is sent.
  created_at: Type.Optional(DateTime()),
};

export const IncidentCostTypeCreate = Type.Object(
  { ...fields, project: RefShape(ProjectRead) },
  { title: 'IncidentCostTypeCreate', additionalProperties: false },
);
export const IncidentCostTypeUpdate = Type.Object({ id: Type.Optional(Id()), ...fields }, { title: 'IncidentCostTypeUpdate', additionalProperties: false });
// The contract's read has no project.
export const IncidentCostTypeRead = Type.Object({ id: Id(), ...fields }, { title: 'IncidentCostTypeRead' });
export const IncidentCostTypePagination = Pagination(IncidentCostTypeRead, 'IncidentCostTypePagination');
