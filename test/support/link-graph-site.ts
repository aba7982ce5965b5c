import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/** Pages of the graph. */
export const GRAPH_SIZE = 60;
/** Pages from this index on live on the subdomain `sub.localhost`; the others on `localhost`. */
const FIRST_SUBDOMAIN_PAGE = 52;
/**
 * Every page answer is held this long, so that two visits of one host overlapping in the browser
 * overlap at the server too and show in maxInFlight().
 */
const PAGE_DELAY_MS = 150;

/** One link of a page: where it points, and the graph page it reaches on the crawl's domain (null: another host). */
export interface GraphLink {
  href: string;
  page: number | null;
}

/**
 * A local site of GRAPH_SIZE small pages linking to each other (tests never use the internet). Chromium
 * resolves `*.localhost` to loopback, so one server on 127.0.0.1 is `localhost` and `sub.localhost`;
 * a page answers only on its own host (404 elsewhere). Each page links to three pages of the graph, to
 * one of them again with a `#fragment`, to itself with a fragment, and to two other hosts: 127.0.0.1
 * (the same server under another name) and `sublocalhost`, whose name merely ends like the domain.
 * `/slow?ms=N` answers after N ms (to hold a browser slot). The server records every request's host and
 * path, and the most page requests of one host it had in flight at once.
 */
export class LinkGraphSite {
  readonly requests: { host: string; path: string }[] = [];
  private readonly inFlight = new Map<string, number>();
  private readonly peak = new Map<string, number>();
  private readonly sockets = new Set<Socket>();
  private slowInFlight = 0;
  private server!: http.Server;
  private port = 0;

  static async start(): Promise<LinkGraphSite> {
    const site = new LinkGraphSite();
    site.server = http.createServer((req, res) => void site.handle(req, res));
    site.server.on('connection', (socket) => {
      site.sockets.add(socket);
      socket.on('close', () => site.sockets.delete(socket));
    });
    await new Promise<void>((resolve) => site.server.listen(0, '127.0.0.1', resolve));
    site.port = (site.server.address() as AddressInfo).port;
    return site;
  }

  hostOf(page: number): string {
    return page >= FIRST_SUBDOMAIN_PAGE ? 'sub.localhost' : 'localhost';
  }

  pageUrl(page: number): string {
    return `http://${this.hostOf(page)}:${this.port}/p/${page}`;
  }

  /** A URL on the loopback name, not a graph page (the crawl's domain does not cover it). */
  url(path: string): string {
    return `http://127.0.0.1:${this.port}${path}`;
  }

  /** The page a URL without fragment names, or null. */
  pageOf(url: string): number | null {
    const u = new URL(url);
    const m = /^\/p\/(\d+)$/.exec(u.pathname);
    if (!m || u.hash !== '' || u.search !== '' || u.port !== String(this.port)) return null;
    const page = Number(m[1]);
    return page < GRAPH_SIZE && u.hostname === this.hostOf(page) ? page : null;
  }

  /** The three graph pages page `i` links to (deterministic, distinct, never itself). */
  targetsOf(i: number): number[] {
    const candidates = [(i + 1) % GRAPH_SIZE, (i * 7 + 3) % GRAPH_SIZE, (i * 13 + 11) % GRAPH_SIZE, (i + 2) % GRAPH_SIZE, (i + 3) % GRAPH_SIZE];
    return [...new Set(candidates.filter((t) => t !== i))].slice(0, 3);
  }

  /** Every link of page `i`, as its HTML has them. */
  linksOf(i: number): GraphLink[] {
    const targets = this.targetsOf(i);
    const first = targets[0] as number;
    return [
      ...targets.map((t) => ({ href: this.pageUrl(t), page: t })),
      { href: `${this.pageUrl(first)}#details`, page: first },
      { href: `${this.pageUrl(i)}#top`, page: i },
      { href: `http://127.0.0.1:${this.port}/p/${first}`, page: null },
      { href: `http://sublocalhost:${this.port}/p/${first}`, page: null },
    ];
  }

  /** The most page requests of each host the server had in flight at once. */
  maxInFlight(): Map<string, number> {
    return new Map(this.peak);
  }

  /** Requests for /slow being answered right now. */
  slowRequests(): number {
    return this.slowInFlight;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const host = (req.headers.host ?? '').replace(/:\d+$/, '');
    const url = new URL(req.url ?? '/', 'http://placeholder');
    this.requests.push({ host, path: url.pathname });
    if (url.pathname === '/slow') {
      this.slowInFlight += 1;
      await new Promise((r) => setTimeout(r, Number(url.searchParams.get('ms') ?? 0)));
      this.slowInFlight -= 1;
      return this.send(res, 200, '<!doctype html><title>slow</title><p>slow</p>');
    }
    const m = /^\/p\/(\d+)$/.exec(url.pathname);
    const page = m ? Number(m[1]) : null;
    if (page === null || page >= GRAPH_SIZE || this.hostOf(page) !== host) return this.send(res, 404, 'not found');
    const now = (this.inFlight.get(host) ?? 0) + 1;
    this.inFlight.set(host, now);
    this.peak.set(host, Math.max(now, this.peak.get(host) ?? 0));
    await new Promise((r) => setTimeout(r, PAGE_DELAY_MS));
    this.inFlight.set(host, (this.inFlight.get(host) ?? 1) - 1);
    const anchors = this.linksOf(page)
      .map((l) => `<li><a href="${l.href}">${l.href}</a></li>`)
      .join('');
    this.send(res, 200, `<!doctype html><title>page ${page}</title><h1 id="top">Page ${page}</h1><ul>${anchors}</ul><a href="mailto:x@example.test">mail</a>`);
  }

  private send(res: ServerResponse, status: number, body: string): void {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  }
}
