import { Type, type Static } from '@sinclair/typebox';
import { Email, Id, NameStr, Opt, Pagination } from '../../server/shapes.ts';
import { OrganizationRead } from '../organization/schema.ts';

const fields = {
  id: Type.Optional(Id()),
  name: NameStr(),
  description: Opt(Type.String()),
  default: Type.Optional(Type.Boolean({ default: false })),
  color: Opt(Type.String()),
  annual_employee_cost: Type.Optional(Type.Integer({ minimum: 0 })),
  business_year_hours: Type.Optional(Type.Integer({ minimum: 1 })),
  owner_email: Opt(Email()),
  owner_conversation: Opt(Type.String()),
};

/**
 * Beyond 0.1.0, for the web UI (current Dispatch's project fields): the name shown in tables and
 * pickers (empty or null: the project's name), whether report forms offer the project, and whether
 * Members may join its Open incidents themselves. Null reads as the default, as Dispatch's nullable
 * fields do.
 */
const uiFields = {
  display_name: Opt(Type.String()),
  enabled: Opt(Type.Boolean()),
  allow_self_join: Opt(Type.Boolean()),
};

// The project's organization is the one in the URL; the body's `organization` is required by the
// contract and otherwise ignored.
export const ProjectCreate = Type.Object(
  { ...fields, ...uiFields, organization: Type.Partial(OrganizationRead, { additionalProperties: true }) },
  { title: 'ProjectCreate', additionalProperties: false },
);
export type ProjectCreateT = Static<typeof ProjectCreate>;

// No `default` keyword on an update: Ajv would fill it in for an omitted field and overwrite the
// stored value, where Dispatch leaves omitted fields unchanged.
export const ProjectUpdate = Type.Object(
  { ...fields, ...uiFields, default: Type.Optional(Type.Boolean()) },
  { title: 'ProjectUpdate', additionalProperties: false },
);
export type ProjectUpdateT = Static<typeof ProjectUpdate>;

export const ProjectRead = Type.Object(
  {
    id: Id(),
    name: NameStr(),
    description: Opt(Type.String()),
    default: Type.Boolean({ default: false }),
    color: Opt(Type.String()),
    annual_employee_cost: Type.Integer(),
    business_year_hours: Type.Integer(),
    owner_email: Opt(Email()),
    owner_conversation: Opt(Type.String()),
    display_name: Type.String(),
    enabled: Type.Boolean(),
    allow_self_join: Type.Boolean(),
  },
  { title: 'ProjectRead' },
);

export const ProjectPagination = Pagination(ProjectRead, 'ProjectPagination');

/** A project referenced from another body: by id, else by name, within the caller's organization. */
export const ProjectRef = Type.Object({ id: Type.Optional(Id()), name: Type.Optional(Type.String()) }, { additionalProperties: true });
