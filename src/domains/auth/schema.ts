import { Type, type Static } from '@sinclair/typebox';
import { Defaulted, Email, Id, Nullable, Opt, Pagination } from '../../server/shapes.ts';
import { ROLES, type Role } from '../../server/context.ts';
import { OrganizationRead } from '../organization/schema.ts';
import { ProjectRead } from '../project/schema.ts';

/** A role in an organization, as `GET /{organization}/auth/myrole` answers it: `"Owner"`, `"Member"`... */
export const RoleName = Type.Unsafe<Role>({ type: 'string', enum: [...ROLES], title: 'UserRoles' });

export const UserOrganization = Type.Object(
  { organization: OrganizationRead, default: Type.Boolean({ default: false }), role: Nullable(Type.String()) },
  { title: 'UserOrganization' },
);

export const UserProject = Type.Object(
  { project: ProjectRead, default: Type.Boolean({ default: false }), role: Nullable(Type.String()) },
  { title: 'UserProject' },
);

/** A membership named in a request body: the record by id or name, loosely, as the UI sends it. */
const Ref = Type.Object({ id: Type.Optional(Id()), name: Type.Optional(Type.String()) }, { additionalProperties: true });
const UserProjectInput = Type.Object(
  { project: Ref, default: Type.Optional(Type.Boolean({ default: false })), role: Opt(Type.String()) },
  { title: 'UserProject', additionalProperties: false },
);
const UserOrganizationInput = Type.Object(
  { organization: Ref, default: Type.Optional(Type.Boolean({ default: false })), role: Opt(Type.String()) },
  { title: 'UserOrganization', additionalProperties: false },
);

export const UserLogin = Type.Object(
  {
    email: Email(),
    password: Type.String({ minLength: 1 }),
    organizations: Defaulted(Type.Array(UserOrganizationInput, { default: [] })),
    projects: Defaulted(Type.Array(UserProjectInput, { default: [] })),
  },
  { title: 'UserLogin', additionalProperties: false },
);
export type UserLoginT = Static<typeof UserLogin>;

export const UserLoginResponse = Type.Object({ token: Nullable(Type.String()), projects: Type.Array(UserProject) }, { title: 'UserLoginResponse' });

export const UserRegister = Type.Object(
  {
    email: Email(),
    password: Opt(Type.String({ minLength: 1 })),
    organizations: Defaulted(Type.Array(UserOrganizationInput, { default: [] })),
    projects: Defaulted(Type.Array(UserProjectInput, { default: [] })),
    // Beyond 0.1.0: the token of an invitation to the organization (POST /{organization}/invitations).
    invitation: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
  },
  { title: 'UserRegister', additionalProperties: false },
);
export type UserRegisterT = Static<typeof UserRegister>;

export const UserRegisterResponse = Type.Object({ token: Nullable(Type.String()) }, { title: 'UserRegisterResponse' });

export const UserRead = Type.Object(
  {
    id: Id(),
    email: Email(),
    organizations: Type.Array(UserOrganization, { default: [] }),
    projects: Type.Array(UserProject, { default: [] }),
    role: Nullable(Type.String()),
  },
  { title: 'UserRead' },
);

export const UserUpdate = Type.Object(
  {
    id: Id(),
    organizations: Type.Optional(Type.Array(UserOrganizationInput)),
    password: Opt(Type.String({ minLength: 1 })),
    projects: Type.Optional(Type.Array(UserProjectInput)),
    role: Opt(Type.String()),
  },
  { title: 'UserUpdate', additionalProperties: false },
);
export type UserUpdateT = Static<typeof UserUpdate>;

export const UserPagination = Pagination(UserRead, 'UserPagination');
