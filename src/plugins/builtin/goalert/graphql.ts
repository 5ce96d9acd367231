// GoAlert's GraphQL API (POST <url>/api/graphql, `Authorization: Bearer <API key>`), through the
// outbound client. A GraphQL error (an unknown id, a key not allowed this query) comes back with
// status 200 and `errors`: it fails the call with GoAlert's words.
import { VendorError, vendorFetch, vendorJson } from '../../../lib/outbound/vendor.ts';
import type { PluginEnv } from '../../types.ts';

export const VENDOR = 'GoAlert';
const TIMEOUT_MS = 10_000;

/**
 * The one document Muster sends: GoAlert binds an API key to one query text, so both operations
 * live in it and each request names the one it runs (`operationName`). MusterService: the service,
 * who is on call at each step now and its integration keys (the generic one pages); MusterUser: a
 * user's e-mail. An Admin creates the key with exactly this text (docs/oncall.md).
 */
export const QUERY_DOCUMENT = `query MusterService($id: ID!) {
  service(id: $id) { id name onCallUsers { userID userName stepNumber } integrationKeys { id type href } }
}

query MusterUser($id: ID!) {
  user(id: $id) { id name email }
}`;

export type Operation = 'MusterService' | 'MusterUser';

export interface GoalertService {
  id: string;
  name: string;
  onCallUsers: { userID: string; userName: string; stepNumber: number }[];
  integrationKeys: { id: string; type: string; href: string }[];
}

export async function graphql<T>(
  baseUrl: string,
  apiKey: string,
  operationName: Operation,
  variables: Record<string, unknown>,
  what: string,
  env: PluginEnv,
): Promise<T> {
  const res = await vendorFetch(env.outbound, { words: { vendor: VENDOR }, what, log: env.log }, `${baseUrl.replace(/\/+$/, '')}/api/graphql`, {
    method: 'POST',
    headers: { authorization: `Bearer ${apiKey}`, 'content-type': 'application/json', accept: 'application/json' },
    body: JSON.stringify({ query: QUERY_DOCUMENT, operationName, variables }),
    timeoutMs: TIMEOUT_MS,
  });
  const body = await vendorJson<{ data?: T; errors?: { message?: string }[] }>(VENDOR, res);
  if (body.errors?.length) {
    const messages = body.errors.map((e) => e.message ?? 'error').join('; ');
    env.log.warn(`${VENDOR}: ${what} failed: ${messages}`);
    throw new VendorError(`${VENDOR} refused ${what}: ${messages.slice(0, 200)}`, res.status);
  }
  if (!body.data) throw new VendorError(`${VENDOR} answered ${what} without data`, res.status);
  return body.data;
}
