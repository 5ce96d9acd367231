import type { App } from '../../server/routing.ts';
import { ListQuery, NullResponse, OrgParams } from '../../server/shapes.ts';
import { changePassword, completePasswordReset, confirmAddress, startPasswordReset } from './account.ts';
import {
  EmailConfirm,
  PasswordChange,
  PasswordResetComplete,
  PasswordResetRequest,
  RoleName,
  TokenResponse,
  UserLogin,
  UserLoginResponse,
  UserPagination,
  UserRead,
  UserRegister,
  UserRegisterResponse,
  UserUpdate,
} from './schema.ts';
import { findOrganization, getUser, limitAttempts, listUsers, login, me, normalizeEmail, register, removeMember, updateUser } from './service.ts';

export default async function authRoutes(app: App) {
  const { db, tokens, settings } = app.muster;
  const client = (ip: string) => ({
    address: ip,
    limits: { perAccount: settings.loginMaxFailures, perAddress: settings.loginMaxFailuresPerAddress, window: settings.loginFailureWindow },
  });

  app.post(
    '/:organization/auth/login',
    {
      schema: { tags: ['auth'], operationId: 'login_user', params: OrgParams(), body: UserLogin, response: { 200: UserLoginResponse } },
      config: { auth: false },
    },
    (req) => login(db, tokens, settings, req.params.organization, req.body, client(req.ip)),
  );

  if (settings.registrationEnabled) {
    app.post(
      '/:organization/auth/register',
      {
        schema: { tags: ['auth'], operationId: 'register_user', params: OrgParams(), body: UserRegister, response: { 200: UserRegisterResponse } },
        config: { auth: false },
      },
      (req) => register(db, tokens, settings, req.params.organization, req.body, client(req.ip)),
    );
  }

  app.get('/:organization/auth/me', { schema: { tags: ['auth'], operationId: 'get_me', params: OrgParams(), response: { 200: UserRead } } }, (req) =>
    me(db, req.caller),
  );

  // Beyond 0.1.0, for the web UI: the caller's role in the organization, which the UI's tables read to
  // offer what the caller may do. A JSON string (`"Owner"`), as current Dispatch answers.
  app.get(
    '/:organization/auth/myrole',
    {
      schema: { tags: ['auth'], operationId: 'get_my_role', params: OrgParams(), response: { 200: RoleName } },
      // Fastify sends a returned string as it is: the JSON text, quotes included, is made on its way out.
      // (The ETag hook before this one hands the text on as bytes.)
      onSend: async (_req, reply, payload) => {
        if (reply.statusCode !== 200 || (typeof payload !== 'string' && !Buffer.isBuffer(payload))) return payload;
        reply.type('application/json; charset=utf-8');
        return JSON.stringify(payload.toString());
      },
    },
    (req) => req.ctx.role,
  );

  // Beyond 0.1.0: a person's own password, its reset by a mailed link, and the confirmation of their address.
  app.post('/:organization/auth/password', { schema: { tags: ['auth'], params: OrgParams(), body: PasswordChange, response: { 200: TokenResponse } } }, (req) =>
    changePassword(req.ctx, tokens, req.body),
  );
  app.post(
    '/:organization/auth/password-reset',
    { schema: { tags: ['auth'], params: OrgParams(), body: PasswordResetRequest, response: { 200: NullResponse } }, config: { auth: false } },
    async (req) => {
      const org = await findOrganization(db, req.params.organization);
      // Counted per client address like failed sign-ins, so it cannot be used to flood a mailbox.
      await limitAttempts(db, `reset:${req.ip}`, client(req.ip).limits);
      await startPasswordReset(db, settings, normalizeEmail(req.body.email), org);
      return null;
    },
  );
  app.post(
    '/:organization/auth/password-reset/complete',
    { schema: { tags: ['auth'], params: OrgParams(), body: PasswordResetComplete, response: { 200: TokenResponse } }, config: { auth: false } },
    (req) => completePasswordReset(db, tokens, settings, req.body, req.ip),
  );
  app.post(
    '/:organization/auth/confirm',
    { schema: { tags: ['auth'], params: OrgParams(), body: EmailConfirm, response: { 200: TokenResponse } }, config: { auth: false } },
    (req) => confirmAddress(db, tokens, req.body, req.ip),
  );

  const tags = ['users'];
  app.get(
    '/:organization/users',
    { schema: { tags, operationId: 'get_users', params: OrgParams(), querystring: ListQuery, response: { 200: UserPagination } } },
    (req) => listUsers(req.ctx, req.query),
  );

  app.get('/:organization/users/:user_id', { schema: { tags, operationId: 'get_user', params: OrgParams('user_id'), response: { 200: UserRead } } }, (req) =>
    getUser(req.ctx, req.params.user_id),
  );

  app.put(
    '/:organization/users/:user_id',
    { schema: { tags, operationId: 'update_user', params: OrgParams('user_id'), body: UserUpdate, response: { 200: UserRead } } },
    (req) => updateUser(req.ctx, req.params.user_id, req.body),
  );

  // Beyond 0.1.0: removing a member from the organization (Owners), or leaving it.
  app.delete('/:organization/users/:user_id', { schema: { tags, params: OrgParams('user_id'), response: { 200: NullResponse } } }, (req) =>
    removeMember(req.ctx, req.params.user_id),
  );
}
