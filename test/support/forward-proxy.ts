import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A plain-HTTP forward proxy for tests: it answers requests for the hosts it knows (`site.test` →
 * 127.0.0.1:<port>), marks each forwarded request with `X-Forwarded-By`, and counts them. A name like
 * site.test does not resolve on this machine, so a page of it loads only through this proxy.
 */
export class ForwardProxy {
  forwarded = 0;
  private constructor(
    private readonly server: http.Server,
    readonly url: string,
  ) {}

  static async start(hosts: Record<string, number>, mark: string): Promise<ForwardProxy> {
    let proxy: ForwardProxy | null = null;
    const server = http.createServer((req, res) => {
      const target = new URL(req.url ?? '/');
      const port = hosts[target.hostname];
      if (!port) {
        res.writeHead(502).end(`unknown host ${target.hostname}`);
        return;
      }
      if (proxy) proxy.forwarded += 1;
      const upstream = http.request({ host: '127.0.0.1', port, path: `${target.pathname}${target.search}`, method: req.method, headers: { ...req.headers, 'x-forwarded-by': mark } }, (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      });
      upstream.on('error', () => res.writeHead(502).end());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new ForwardProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    return proxy;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
