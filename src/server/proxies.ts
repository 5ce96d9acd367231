// Which proxies in front of Muster are believed about the client's address (X-Forwarded-For): a
// number of hops, or the addresses and CIDRs of the proxies themselves. Believing every sender (what
// `trustProxy: true` does) lets a client name its own address, and so choose the address the
// per-address login limit counts; here only the configured proxies can.
import { BlockList, isIP } from 'node:net';
import { ConfigError, type Settings } from '../config.ts';

export type TrustedProxies = { hops: number } | { cidrs: string[] } | null;

/** MUSTER_TRUSTED_PROXIES read: null (trust none), a hop count, or a list of addresses and CIDRs. ConfigError when malformed. */
export function parseTrustedProxies(raw: string | undefined): TrustedProxies {
  const value = raw?.trim();
  if (!value) return null;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops === 0 ? null : { hops };
  }
  const cidrs = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  for (const entry of cidrs) {
    const [address, bits, extra] = entry.split('/');
    const family = isIP(address ?? '');
    const max = family === 6 ? 128 : 32;
    if (!family || extra !== undefined || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= max))) {
      throw new ConfigError(`MUSTER_TRUSTED_PROXIES must be a number of hops or comma-separated addresses and CIDRs (10.0.0.0/8), got "${entry}"`);
    }
  }
  return { cidrs };
}

/**
 * Fastify's `trustProxy` for the settings: false, the list of proxies, or for a hop count the
 * function Fastify makes of a number (the `hops` nearest hops are proxies), which its types lack.
 */
export function fastifyTrustProxy(trusted: TrustedProxies): false | string[] | ((address: string, hop: number) => boolean) {
  if (!trusted) return false;
  if ('cidrs' in trusted) return trusted.cidrs;
  const { hops } = trusted;
  return (_address, hop) => hop < hops;
}

/** Whether `address` (a socket's peer) is one of the listed proxies. */
export function proxyMatcher(cidrs: string[]): (address: string | undefined) => boolean {
  const list = new BlockList();
  for (const entry of cidrs) {
    const [address, bits] = entry.split('/');
    const type = isIP(address) === 6 ? 'ipv6' : 'ipv4';
    if (bits === undefined) list.addAddress(address, type);
    else list.addSubnet(address, Number(bits), type);
  }
  return (address) => {
    if (!address) return false;
    // An IPv4 client on a dual-stack socket shows as ::ffff:a.b.c.d.
    const plain = address.startsWith('::ffff:') && isIP(address.slice(7)) === 4 ? address.slice(7) : address;
    const family = isIP(plain);
    return family !== 0 && list.check(plain, family === 6 ? 'ipv6' : 'ipv4');
  };
}

/**
 * Checks the settings that depend on trusted proxies: header sign-in believes a header only from
 * listed proxies, so it needs them listed by address (a hop count says nothing of who the peer is).
 */
export function checkProxySettings(settings: Settings): TrustedProxies {
  const trusted = parseTrustedProxies(settings.trustedProxies);
  if (settings.headerAuth && !(trusted && 'cidrs' in trusted)) {
    throw new ConfigError(
      'MUSTER_HEADER_AUTH needs MUSTER_TRUSTED_PROXIES set to the addresses or CIDRs of the proxies that set the header (a hop count is not enough)',
    );
  }
  return trusted;
}
