import net from 'node:net';
import { parseCidr } from '../../core/net/cidr.js';
import { embeddedIpv4, ipv6Groups } from '../../core/net/ip-ranges.js';

/**
 * SHOTFARM_TRUSTED_PROXIES: the reverse proxies (addresses or CIDRs) whose X-Forwarded-For is believed.
 * Anyone can send the header, so it says who the client is only when the connection comes from one of
 * these; the default, none, makes the connection's own address the client's.
 */
export class TrustedProxies {
  private readonly networks = new net.BlockList();

  /** Entries are checked by the config loader (parseCidr); one that does not parse is ignored here. */
  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const cidr = parseCidr(entry);
      if (cidr) this.networks.addSubnet(cidr.address, cidr.prefix, cidr.family);
    }
  }

  /** Whether an address (already in canonical form, see canonicalAddress) is one of the proxies. */
  has(address: string): boolean {
    const family = net.isIPv4(address) ? 'ipv4' : 'ipv6';
    return this.networks.check(address, family);
  }
}

/**
 * An address as the limiters key it: IPv4-mapped IPv6 (`::ffff:1.2.3.4`, how a dual-stack socket reports
 * an IPv4 peer) as the IPv4 address, IPv6 in lower case without a zone; null when it is no IP address.
 * An X-Forwarded-For entry may carry a port (`1.2.3.4:5678`, `[2001:db8::1]:443`), which is dropped.
 */
export function canonicalAddress(text: string): string | null {
  let t = text.trim();
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(t);
  if (bracketed?.[1]) t = bracketed[1];
  else if (/^\d+\.\d+\.\d+\.\d+:\d+$/.test(t)) t = t.slice(0, t.lastIndexOf(':'));
  t = (t.split('%')[0] ?? t).toLowerCase();
  if (net.isIPv4(t)) return t;
  if (!net.isIPv6(t)) return null;
  // Only the IPv4-mapped form is the same host as its IPv4 address; NAT64 and 6to4 are other hosts.
  return /^::ffff:/.test(t) && embeddedIpv4(t) !== null ? (embeddedIpv4(t) as string) : t;
}

/**
 * The client's address of one request: the connection's peer, unless the peer is a trusted proxy; then
 * X-Forwarded-For is read from the right (each proxy appends the address it was connected from) and the
 * client is the first address that is not a trusted proxy. What lies left of it was written by the
 * client and is never believed. When every hop is a proxy, the left-most one is the client; an entry
 * that is no address ends the walk at the last address reached.
 */
export function forwardedClient(peer: string, forwardedFor: string | string[] | undefined, trusted: TrustedProxies): string {
  let client = canonicalAddress(peer) ?? peer;
  if (!trusted.has(client) || forwardedFor === undefined) return client;
  const hops = (Array.isArray(forwardedFor) ? forwardedFor.join(',') : forwardedFor).split(',');
  for (let i = hops.length - 1; i >= 0; i--) {
    const hop = canonicalAddress(hops[i] ?? '');
    if (hop === null) return client;
    client = hop;
    if (!trusted.has(hop)) return client;
  }
  return client;
}

/**
 * What the per-address limits count a client address as: an IPv4 address as itself, an IPv6 address as
 * its /64. One IPv6 subscriber (a home line, a cloud VM) is routinely given a whole /64, 2^64 addresses
 * to pick from, so counting single IPv6 addresses would let any such client past every per-address limit.
 */
export function addressLimitKey(address: string): string {
  if (!net.isIPv6(address)) return address;
  const g = ipv6Groups(address);
  return `${g
    .slice(0, 4)
    .map((x) => x.toString(16))
    .join(':')}::/64`;
}
