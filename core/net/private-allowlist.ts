import net from 'node:net';
import { parseCidr } from './cidr.js';
import { embeddedIpv4 } from './ip-ranges.js';

/**
 * SHOTFARM_PRIVATE_TARGET_ALLOWLIST: the private networks and host names an intranet deployment lets
 * captures reach. A listed host name is let through whatever it resolves to (the operator vouches for
 * it); a listed network lets through any host name that resolves into it.
 */
export class PrivateAllowlist {
  private readonly networks = new net.BlockList();
  private readonly hosts = new Set<string>();

  constructor(entries: readonly string[]) {
    for (const entry of entries) {
      const cidr = parseCidr(entry);
      if (cidr) this.networks.addSubnet(cidr.address, cidr.prefix, cidr.family);
      else this.hosts.add(normaliseHost(entry));
    }
  }

  hostAllowed(host: string): boolean {
    return this.hosts.has(normaliseHost(host));
  }

  addressAllowed(address: string): boolean {
    const v4 = net.isIPv4(address) ? address : embeddedIpv4(address);
    if (v4 !== null) return this.networks.check(v4, 'ipv4');
    return net.isIPv6(address) && this.networks.check(address.split('%')[0] ?? address, 'ipv6');
  }
}

/** Lower case, without IPv6 brackets or the root label's trailing dot: the form host names are compared in. */
export function normaliseHost(host: string): string {
  return host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1')
    .replace(/\.$/, '');
}
