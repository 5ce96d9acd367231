// Beyond Dispatch 0.1.0: API tokens and service accounts (api-tokens.ts).
// GET/POST /{organization}/api-tokens, DELETE /{organization}/api-tokens/{token_id};
// GET/POST /{organization}/service-accounts, DELETE /{organization}/service-accounts/{service_account_id};
// GET/POST /{organization}/service-accounts/{service_account_id}/tokens.
import type { App } from '../../server/routing.ts';
import { NullResponse, OrgParams } from '../../server/shapes.ts';
import {
  ApiTokenCreate,
  ApiTokenCreated,
  ApiTokenList,
  ApiTokenQuery,
  createServiceAccount,
  createServiceAccountToken,
  createToken,
  deactivateServiceAccount,
  listServiceAccounts,
  listServiceAccountTokens,
  listTokens,
  revokeToken,
  ServiceAccountCreate,
  ServiceAccountList,
  ServiceAccountRead,
} from './api-tokens.ts';

export default async function apiTokenRoutes(app: App) {
  const tags = ['api tokens'];
  app.get('/:organization/api-tokens', { schema: { tags, params: OrgParams(), querystring: ApiTokenQuery, response: { 200: ApiTokenList } } }, (req) =>
    listTokens(req.ctx, req.query),
  );
  app.post('/:organization/api-tokens', { schema: { tags, params: OrgParams(), body: ApiTokenCreate, response: { 200: ApiTokenCreated } } }, (req) =>
    createToken(req.ctx, req.body),
  );
  app.delete('/:organization/api-tokens/:token_id', { schema: { tags, params: OrgParams('token_id'), response: { 200: NullResponse } } }, (req) =>
    revokeToken(req.ctx, req.params.token_id),
  );

  app.get('/:organization/service-accounts', { schema: { tags, params: OrgParams(), response: { 200: ServiceAccountList } } }, (req) =>
    listServiceAccounts(req.ctx),
  );
  app.post(
    '/:organization/service-accounts',
    { schema: { tags, params: OrgParams(), body: ServiceAccountCreate, response: { 200: ServiceAccountRead } } },
    (req) => createServiceAccount(req.ctx, req.body),
  );
  app.delete(
    '/:organization/service-accounts/:service_account_id',
    { schema: { tags, params: OrgParams('service_account_id'), response: { 200: NullResponse } } },
    (req) => deactivateServiceAccount(req.ctx, req.params.service_account_id),
  );
  app.get(
    '/:organization/service-accounts/:service_account_id/tokens',
    { schema: { tags, params: OrgParams('service_account_id'), response: { 200: ApiTokenList } } },
    (req) => listServiceAccountTokens(req.ctx, req.params.service_account_id),
  );
  app.post(
    '/:organization/service-accounts/:service_account_id/tokens',
    { schema: { tags, params: OrgParams('service_account_id'), body: ApiTokenCreate, response: { 200: ApiTokenCreated } } },
    (req) => createServiceAccountToken(req.ctx, req.params.service_account_id, req.body),
  );
}
