import http from 'node:http';
import net, { type AddressInfo } from 'node:net';

/**
 * A plain-HTTP forward proxy for tests: it answers requests for the hosts it knows (`site.test` →
 * 127.0.0.1:<port>), marks each forwarded request with `X-Forwarded-By`, and counts them. A name like
 * site.test does not resolve on this machine, so a page of it loads only through this proxy.
 * With `tlsPort`, a CONNECT (https) to a known host is tunnelled to that port on 127.0.0.1, where the
 * test's own TLS server answers for it; a CONNECT to any other name gets 502, like a request does, and
 * no name is ever resolved.
 */
export class ForwardProxy {
  forwarded = 0;
  private constructor(
    private readonly server: http.Server,
    readonly url: string,
    private readonly tunnels: Set<net.Socket>,
  ) {}

  static async start(hosts: Record<string, number>, mark: string, tlsPort?: number): Promise<ForwardProxy> {
    let proxy: ForwardProxy | null = null;
    // CONNECT sockets leave the server's bookkeeping (closeAllConnections does not see them): close() ends them.
    const tunnels = new Set<net.Socket>();
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
    server.on('connect', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
      // `CONNECT host:443`: the name is looked up in `hosts` only, never resolved.
      const hostname = (req.url ?? '').replace(/:\d+$/, '');
      client.on('error', () => client.destroy());
      if (!hosts[hostname] || tlsPort === undefined) {
        client.end(`HTTP/1.1 502 Bad Gateway\r\n\r\nunknown host ${hostname}`);
        return;
      }
      if (proxy) proxy.forwarded += 1;
      tunnels.add(client);
      const upstream = net.connect(tlsPort, '127.0.0.1', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', () => client.destroy());
      client.on('close', () => {
        tunnels.delete(client);
        upstream.destroy();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    proxy = new ForwardProxy(server, `http://127.0.0.1:${(server.address() as AddressInfo).port}`, tunnels);
    return proxy;
  }

  close(): Promise<void> {
    for (const tunnel of this.tunnels) tunnel.destroy();
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}
