import http from 'node:http';
import os from 'node:os';
import type { AddressInfo } from 'node:net';
import { privateKindOf } from '../../core/net/ip-ranges.js';
import { systemLookup, type HostLookup } from '../../core/net/resolve-destination.js';

/**
 * An IPv4 address of this machine that the egress guard treats as public (no private, loopback or other
 * internal range), or null. Containers often have one from a documentation or public range; a page served
 * there is allowed without any allowlist, like a page on the internet.
 */
export function publicLookingAddress(): string | null {
  for (const list of Object.values(os.networkInterfaces())) {
    for (const a of list ?? []) if (a.family === 'IPv4' && privateKindOf(a.address) === null) return a.address;
  }
  return null;
}

/** The guard's resolver for tests: the names in `map` resolve to the given address, others as usual. */
export function mappedLookup(map: Record<string, string>): HostLookup {
  return async (host) => (map[host] !== undefined ? [map[host]] : systemLookup(host));
}

/**
 * A small site for the SSRF suite, on an address the guard lets through: a plain page, a redirect to any
 * URL (`/to?u=URL`), and a page whose image, fetch() and WebSocket point where the test says.
 */
export class AllowedSite {
  readonly hits = new Map<string, number>();
  private constructor(
    private readonly server: http.Server,
    readonly origin: string,
  ) {}

  static async start(address: string): Promise<AllowedSite> {
    let site: AllowedSite | null = null;
    const server = http.createServer((req, res) => {
      const url = new URL(req.url ?? '/', 'http://allowed');
      site?.hits.set(url.pathname, (site.hits.get(url.pathname) ?? 0) + 1);
      if (url.pathname === '/to') {
        res.writeHead(302, { location: url.searchParams.get('u') ?? '/' }).end();
        return;
      }
      if (url.pathname === '/subresources') {
        const img = JSON.stringify(url.searchParams.get('img'));
        const fetched = JSON.stringify(url.searchParams.get('fetch'));
        const ws = JSON.stringify(url.searchParams.get('ws'));
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end(`<!doctype html><title>subresources</title>
<h1>allowed page</h1><img id="img" alt="private image">
<script>
document.getElementById('img').src = ${img};
fetch(${fetched}).catch(() => undefined);
try { new WebSocket(${ws}).onerror = () => undefined; } catch (e) { /* refused by the browser itself */ }
</script>`);
        return;
      }
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' }).end('<!doctype html><title>allowed</title><h1>allowed page</h1>');
    });
    await new Promise<void>((resolve) => server.listen(0, address, resolve));
    site = new AllowedSite(server, `http://${address}:${(server.address() as AddressInfo).port}`);
    return site;
  }

  get port(): number {
    return (this.server.address() as AddressInfo).port;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
