import type { App } from '../../server/routing.ts';
import { ListQuery, OrgParams } from '../../server/shapes.ts';
import { RoleName, UserLogin, UserLoginResponse, UserPagination, UserRead, UserRegister, UserRegisterResponse, UserUpdate } from './schema.ts';
import { getUser, listUsers, login, me, register, updateUser } from './service.ts';

export default async function authRoutes(app: App) {
  const { db, tokens, settings } = app.muster;

  app.post(
    '/:organization/auth/login',
    {
      schema: { tags: ['auth'], operationId: 'login_user', params: OrgParams(), body: UserLogin, response: { 200: UserLoginResponse } },
      config: { auth: false },
    },
    (req) =>
      login(db, tokens, req.params.organization, req.body, {
        address: req.ip,
        limits: { perAccount: settings.loginMaxFailures, perAddress: settings.loginMaxFailuresPerAddress, window: settings.loginFailureWindow },
      }),
  );

  if (settings.registrationEnabled) {
    app.post(
      '/:organization/auth/register',
      {
        schema: { tags: ['auth'], operationId: 'register_user', params: OrgParams(), body: UserRegister, response: { 200: UserRegisterResponse } },
        config: { auth: false },
      },
      (req) => register(db, tokens, req.params.organization, req.body),
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
      onSend: async (_req, reply, payload) => {
        if (reply.statusCode !== 200 || typeof payload !== 'string') return payload;
        reply.type('application/json; charset=utf-8');
        return JSON.stringify(payload);
      },
    },
    (req) => req.ctx.role,
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
}
