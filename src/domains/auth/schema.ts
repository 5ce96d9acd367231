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
    // Beyond 0.1.0: a person setting their own password proves the current one.
    current_password: Opt(Type.String({ minLength: 1 })),
    projects: Type.Optional(Type.Array(UserProjectInput)),
    role: Opt(Type.String()),
  },
  { title: 'UserUpdate', additionalProperties: false },
);
export type UserUpdateT = Static<typeof UserUpdate>;

export const UserPagination = Pagination(UserRead, 'UserPagination');

/** Beyond 0.1.0: the caller's new password, proving the current one (POST /{organization}/auth/password). */
export const PasswordChange = Type.Object(
  { current_password: Type.String({ minLength: 1 }), new_password: Type.String({ minLength: 1 }) },
  { title: 'PasswordChange', additionalProperties: false },
);
/** Beyond 0.1.0: asking for a reset link (POST /{organization}/auth/password-reset). */
export const PasswordResetRequest = Type.Object({ email: Email() }, { title: 'PasswordResetRequest', additionalProperties: false });
/** Beyond 0.1.0: a new password with a reset link's token (POST /{organization}/auth/password-reset/complete). */
export const PasswordResetComplete = Type.Object(
  { token: Type.String({ minLength: 1, maxLength: 200 }), password: Type.String({ minLength: 1 }) },
  { title: 'PasswordResetComplete', additionalProperties: false },
);
/** Beyond 0.1.0: a confirmation link's token (POST /{organization}/auth/confirm). */
export const EmailConfirm = Type.Object({ token: Type.String({ minLength: 1, maxLength: 200 }) }, { title: 'EmailConfirm', additionalProperties: false });
/** A fresh session token, answered where the old ones just stopped working. */
export const TokenResponse = Type.Object({ token: Type.String() }, { title: 'TokenResponse' });
