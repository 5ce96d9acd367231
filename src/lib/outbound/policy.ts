// Where Muster may connect on behalf of a plugin or a notification: public addresses only, unless
// the operator allows more with MUSTER_OUTBOUND_ALLOW (CIDRs and host names, comma separated, for
// receivers on the operator's own network). Private, loopback, link-local (cloud metadata at
// 169.254.169.254), CGNAT, multicast, reserved and unspecified addresses are refused, IPv4 ones
// also when written as IPv6 (IPv4-mapped, NAT64).
import { BlockList, isIP } from 'node:net';

const REFUSED_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
const REFUSED_V6: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001:db8::', 32],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

const refused = new BlockList();
for (const [a, p] of REFUSED_V4) refused.addSubnet(a, p, 'ipv4');
for (const [a, p] of REFUSED_V6) refused.addSubnet(a, p, 'ipv6');

/** A connection the policy does not allow. Its message names the host, never a path or a credential. */
export class OutboundRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'OutboundRefused';
  }
}

const family = (ip: string) => (isIP(ip) === 6 ? 'ipv6' : 'ipv4');

/** The IPv4 address an IPv6 one carries (NAT64 64:ff9b::/96), else the address itself. */
function embeddedV4(ip: string): string {
  const m = /^64:ff9b::(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip);
  if (!m) return ip;
  if (m[1]) return m[1];
  const hi = Number.parseInt(m[2], 16);
  const lo = Number.parseInt(m[3], 16);
  return `${hi >> 8}.${hi & 255}.${lo >> 8}.${lo & 255}`;
}

export class OutboundPolicy {
  private readonly allowedNets = new BlockList();
  private readonly allowedHosts = new Set<string>();

  /** `allow`: MUSTER_OUTBOUND_ALLOW's value. Throws naming an entry it cannot read. */
  constructor(allow = '') {
    for (const raw of allow.split(',')) {
      const entry = raw.trim().toLowerCase();
      if (!entry) continue;
      const [addr, bits, extra] = entry.split('/');
      if (isIP(addr)) {
        const max = isIP(addr) === 6 ? 128 : 32;
        const prefix = bits === undefined ? max : Number(bits);
        if (extra !== undefined || !Number.isInteger(prefix) || prefix < 0 || prefix > max)
          throw new Error(`MUSTER_OUTBOUND_ALLOW: ${raw.trim()} is not a CIDR`);
        this.allowedNets.addSubnet(addr, prefix, family(addr));
      } else if (/^[a-z0-9.-]+$/.test(entry) && bits === undefined) {
        this.allowedHosts.add(entry.replace(/\.$/, ''));
      } else {
        throw new Error(`MUSTER_OUTBOUND_ALLOW: ${raw.trim()} is neither a CIDR nor a host name`);
      }
    }
  }

  /** Whether the operator named this host: its addresses are then not checked. */
  allowsHost(hostname: string): boolean {
    return this.allowedHosts.has(hostname.toLowerCase().replace(/\.$/, ''));
  }

  /** Whether Muster may connect to this address. */
  allowsAddress(ip: string): boolean {
    const f = family(ip);
    if (this.allowedNets.check(ip, f)) return true;
    const v4 = embeddedV4(ip);
    if (v4 !== ip && this.allowedNets.check(v4, 'ipv4')) return true;
    return !refused.check(ip, f) && (v4 === ip || !refused.check(v4, 'ipv4'));
  }

  /** Throws OutboundRefused unless Muster may connect to `ip` for `hostname`. */
  check(hostname: string, ip: string): void {
    if (this.allowsHost(hostname) || this.allowsAddress(ip)) return;
    const what = hostname === ip ? `${ip} is an address` : `${hostname} resolves to an address`;
    throw new OutboundRefused(`${what} outside the outbound policy (MUSTER_OUTBOUND_ALLOW)`);
  }
}
