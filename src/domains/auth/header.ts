// Dispatch's header provider: a proxy in front (an identity-aware proxy, oauth2-proxy, a corporate
// gateway) signs people in and names them in a header (`remote-user` by default). The header is
// believed only from a direct peer among the trusted proxies (MUSTER_TRUSTED_PROXIES); from anyone
// else it is ignored, as if absent.
import type { FastifyRequest } from 'fastify';
import { proxyMatcher } from '../../server/proxies.ts';
import type { Authenticator, Identity } from './hook.ts';

export function headerAuthenticator(headerName: string, proxies: string[]): Authenticator {
  const name = headerName.toLowerCase();
  const trusted = proxyMatcher(proxies);
  return async (request: FastifyRequest): Promise<Identity | null | undefined> => {
    const raw = request.headers[name];
    if (raw === undefined || !trusted(request.socket.remoteAddress)) return undefined;
    const value = (Array.isArray(raw) ? raw[0] : raw)?.trim().toLowerCase();
    return value && /^[^@\s]+@[^@\s]+$/.test(value) ? { email: value } : null;
  };
}
