import dns from 'node:dns';
import net from 'node:net';
import { normaliseHost, type PrivateAllowlist } from './private-allowlist.js';
import { privateKindOf, type PrivateKind } from './ip-ranges.js';

/** Resolves a host name to its addresses; injectable so tests can map names onto the loopback site. */
export type HostLookup = (host: string) => Promise<string[]>;

/** The system resolver, every address of the name (IPv4 and IPv6), in the order it returns them. */
export const systemLookup: HostLookup = async (host) => (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);

/** Where a request may go: the one address to connect to, or why it may not go anywhere. */
export type Destination = { allowed: true; address: string } | { allowed: false; address: string; kind: PrivateKind };

/**
 * Resolves a request's host ONCE and decides on the result: the caller connects to exactly the address
 * returned, so a name cannot resolve to a public address for the check and a private one for the
 * connection (DNS rebinding). Of several addresses the first allowed one is used; when none is allowed
 * the first one explains why.
 */
export async function resolveDestination(rawHost: string, lookup: HostLookup, allowlist: PrivateAllowlist): Promise<Destination> {
  const host = normaliseHost(rawHost);
  const addresses = net.isIP(host) ? [host] : await lookup(host);
  const [first] = addresses;
  if (first === undefined) throw new Error(`${host} has no address`);
  if (allowlist.hostAllowed(host)) return { allowed: true, address: first };
  for (const address of addresses) {
    if (privateKindOf(address) === null || allowlist.addressAllowed(address)) return { allowed: true, address };
  }
  return { allowed: false, address: first, kind: privateKindOf(first) ?? 'reserved' };
}
