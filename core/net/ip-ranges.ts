import net from 'node:net';

/** Why an address may not be reached from a capture, said the way the error message says it. */
export type PrivateKind = 'loopback' | 'private' | 'link-local' | 'carrier-grade NAT' | 'multicast' | 'unspecified' | 'broadcast' | 'reserved';

/**
 * The ranges a capture must never reach, with the reason each one is closed. IPv4-mapped (::ffff:0:0/96)
 * and NAT64 (64:ff9b::/96) addresses are not listed: they carry an IPv4 address, which is checked instead.
 */
const RANGES: readonly [string, number, 'ipv4' | 'ipv6', PrivateKind][] = [
  ['0.0.0.0', 8, 'ipv4', 'unspecified'], // "this network" (RFC 791); 0.0.0.0 reaches the local host on Linux
  ['10.0.0.0', 8, 'ipv4', 'private'], // RFC 1918
  ['100.64.0.0', 10, 'ipv4', 'carrier-grade NAT'], // RFC 6598: the ISP's side of CGNAT, often a provider's internal network
  ['127.0.0.0', 8, 'ipv4', 'loopback'],
  ['169.254.0.0', 16, 'ipv4', 'link-local'], // includes 169.254.169.254, the cloud metadata service
  ['172.16.0.0', 12, 'ipv4', 'private'], // RFC 1918
  ['192.0.0.0', 24, 'ipv4', 'reserved'], // RFC 6890 IETF protocol assignments (DS-Lite, NAT64 discovery)
  ['192.168.0.0', 16, 'ipv4', 'private'], // RFC 1918
  ['198.18.0.0', 15, 'ipv4', 'reserved'], // RFC 2544 benchmarking, used inside some data centres
  ['224.0.0.0', 4, 'ipv4', 'multicast'],
  ['240.0.0.0', 4, 'ipv4', 'reserved'], // RFC 1112 "future use"; 255.255.255.255 is handled as broadcast below
  ['::', 128, 'ipv6', 'unspecified'],
  ['::1', 128, 'ipv6', 'loopback'],
  ['::', 96, 'ipv6', 'reserved'], // deprecated IPv4-compatible addresses (::a.b.c.d), never routed publicly
  ['fc00::', 7, 'ipv6', 'private'], // unique local addresses
  ['fe80::', 10, 'ipv6', 'link-local'],
  ['fec0::', 10, 'ipv6', 'private'], // deprecated site-local, still routed inside some networks
  ['ff00::', 8, 'ipv6', 'multicast'],
];

const BLOCKS = RANGES.map(([address, prefix, family, kind]) => {
  const list = new net.BlockList();
  list.addSubnet(address, prefix, family);
  return { list, family, kind };
});

/** IPv6 prefixes whose last 32 bits are an IPv4 address: IPv4-mapped and the NAT64 well-known prefix. */
const EMBEDS_V4 = (() => {
  const list = new net.BlockList();
  list.addSubnet('::ffff:0:0', 96, 'ipv6');
  list.addSubnet('64:ff9b::', 96, 'ipv6');
  return list;
})();

/** Expands an IPv6 address to its eight 16-bit groups. */
export function ipv6Groups(ipv6: string): number[] {
  let text = ipv6.split('%')[0] ?? ipv6; // a zone index (fe80::1%eth0) is no part of the address
  // A dotted tail (::ffff:1.2.3.4) is two groups.
  const dotted = /(\d+\.\d+\.\d+\.\d+)$/.exec(text);
  if (dotted?.[1]) {
    const [a = 0, b = 0, c = 0, d = 0] = dotted[1].split('.').map(Number);
    text = `${text.slice(0, -dotted[1].length)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', tail] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const missing = tail === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(missing).fill('0'), ...right].map((g) => parseInt(g, 16));
}

/**
 * The IPv4 address an IPv6 address carries, or null: IPv4-mapped and NAT64 addresses carry it in their
 * last 32 bits; 6to4 addresses (2002::/16, RFC 3056) carry it in bits 16–47, and a 6to4 relay would
 * deliver to that IPv4 address, so `2002:7f00:1::` reaches 127.0.0.1's network as surely as 127.0.0.1.
 */
export function embeddedIpv4(ipv6: string): string | null {
  if (!net.isIPv6(ipv6)) return null;
  const g = ipv6Groups(ipv6);
  const v4 = (hi: number, lo: number): string => `${hi >> 8}.${hi & 0xff}.${lo >> 8}.${lo & 0xff}`;
  if (EMBEDS_V4.check(ipv6.split('%')[0] ?? ipv6, 'ipv6')) return v4(g[6] ?? 0, g[7] ?? 0);
  if (g[0] === 0x2002) return v4(g[1] ?? 0, g[2] ?? 0);
  return null;
}

/**
 * Why a capture may not connect to this address (an IP literal, as a resolver returns it), or null when it
 * is a public address. Anything that is not an IP address at all is refused as `reserved`: the guard only
 * ever connects to addresses.
 */
export function privateKindOf(address: string): PrivateKind | null {
  const v4 = net.isIPv4(address) ? address : embeddedIpv4(address);
  if (v4 !== null) {
    if (v4 === '255.255.255.255') return 'broadcast';
    return BLOCKS.find((b) => b.family === 'ipv4' && b.list.check(v4, 'ipv4'))?.kind ?? null;
  }
  if (!net.isIPv6(address)) return 'reserved';
  const bare = address.split('%')[0] ?? address;
  return BLOCKS.find((b) => b.family === 'ipv6' && b.list.check(bare, 'ipv6'))?.kind ?? null;
}
