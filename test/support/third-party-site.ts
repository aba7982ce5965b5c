import { readFile } from 'node:fs/promises';
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';
import { ForwardProxy } from './forward-proxy.js';
import { repoPath } from './repo-path.js';
import { throwawayCertificate } from './throwaway-certificate.js';

/** The fixture hosts: each folder of test/fixtures/third-parties is a host name, its files the host's paths. */
const FIXTURES = repoPath('test/fixtures/third-parties');

/**
 * Pages that name public hosts (chat vendors, trackers, social buttons, ad servers) without any packet or
 * DNS query leaving: the browser reaches every host through a forward proxy that maps the fixture hosts
 * to this server on 127.0.0.1 and answers 502 for any other name, so no name is ever resolved. The server
 * answers by the request's Host header from test/fixtures/third-parties/<host>/<path>, and counts hits.
 * It answers https too (CONNECT through the proxy, TLS ended here with a self-signed certificate made for
 * the fixture hosts at start): vendors' snippets name https, and some hosts (client.crisp.chat,
 * widget.intercom.io) are on Chromium's HSTS preload list, so a browser asks them over https whatever
 * the page says. Captures accept the certificate as they accept any certificate error unless strict_ssl.
 */
export class ThirdPartySite {
  private readonly hitCounts = new Map<string, number>();

  private constructor(
    private readonly server: http.Server,
    private readonly tlsServer: https.Server,
    readonly proxy: ForwardProxy,
  ) {}

  static async start(hosts: readonly string[]): Promise<ThirdPartySite> {
    let site: ThirdPartySite | null = null;
    const answer = (req: http.IncomingMessage, res: http.ServerResponse): void => {
      const host = (req.headers.host ?? '').replace(/:\d+$/, '');
      const path = new URL(req.url ?? '/', 'http://fixture').pathname;
      const key = `${host}${path}`;
      site?.hitCounts.set(key, (site.hitCounts.get(key) ?? 0) + 1);
      const file = normalize(join(FIXTURES, host, path));
      if (!file.startsWith(`${FIXTURES}/`)) return void res.writeHead(404).end();
      readFile(file).then(
        (body) => res.writeHead(200, { 'content-type': contentType(path), 'cache-control': 'no-store' }).end(body),
        () => res.writeHead(404).end(),
      );
    };
    const server = http.createServer(answer);
    const tlsServer = https.createServer(await throwawayCertificate(hosts), answer);
    await Promise.all([server, tlsServer].map((listener) => new Promise<void>((resolve) => listener.listen(0, '127.0.0.1', resolve))));
    const port = (server.address() as AddressInfo).port;
    const tlsPort = (tlsServer.address() as AddressInfo).port;
    const proxy = await ForwardProxy.start(Object.fromEntries(hosts.map((host) => [host, port])), 'third-parties', tlsPort);
    site = new ThirdPartySite(server, tlsServer, proxy);
    return site;
  }

  /** Requests that reached `hostAndPath` (`js.driftt.com/include/…`, without the query). */
  hits(hostAndPath: string): number {
    return this.hitCounts.get(hostAndPath) ?? 0;
  }

  async close(): Promise<void> {
    await this.proxy.close();
    for (const listener of [this.server, this.tlsServer]) {
      listener.closeAllConnections();
      await new Promise((resolve) => listener.close(resolve));
    }
  }
}

function contentType(path: string): string {
  if (path.endsWith('.html')) return 'text/html; charset=utf-8';
  if (path === '/tr') return 'image/gif';
  return 'application/javascript';
}
