import net from 'node:net';

/** A network as an allowlist entry: its base address, family and prefix length. */
export interface Cidr {
  address: string;
  family: 'ipv4' | 'ipv6';
  prefix: number;
}

/** Longest prefix per family: a bare address is a network of exactly itself. */
const FULL_PREFIX = { ipv4: 32, ipv6: 128 } as const;

/** `10.0.0.0/8`, `fd00::/8` or a bare address (`10.1.2.3`, `::1`) as a Cidr; null when it is neither. */
export function parseCidr(text: string): Cidr | null {
  const [address = '', prefixText, ...rest] = text.trim().split('/');
  if (rest.length > 0) return null;
  const version = net.isIP(address);
  if (version === 0) return null;
  const family = version === 4 ? 'ipv4' : 'ipv6';
  if (prefixText === undefined) return { address, family, prefix: FULL_PREFIX[family] };
  if (!/^\d{1,3}$/.test(prefixText) || Number(prefixText) > FULL_PREFIX[family]) return null;
  return { address, family, prefix: Number(prefixText) };
}

/** RFC 1123 host name: dot-separated labels of letters, digits and inner hyphens, at most 253 characters. */
const HOST_NAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*$/i;

/** Whether an allowlist entry is a CIDR, an address or a host name. */
export function isCidrOrHost(text: string): boolean {
  return parseCidr(text) !== null || (!text.includes('/') && HOST_NAME.test(text));
}
