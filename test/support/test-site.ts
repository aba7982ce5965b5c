import { readFile } from 'node:fs/promises';
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { extname, join, normalize } from 'node:path';
import sharp from 'sharp';
import { repoPath } from './repo-path.js';
import { tallPageHtml } from './tall-page.js';

/** A 1×1 transparent PNG: the lazy image and the ad banner. */
const PIXEL_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.png': 'image/png', '.css': 'text/css', '.json': 'application/json' };
/** A web font the font fixtures download (any TrueType font does; DejaVu comes with the browsers' fonts). */
const FONT_FILE = '/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf';

function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** Parses a Cookie header into name → value. */
function cookiesOf(header: string | undefined): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of (header ?? '').split(';')) {
    const [name, ...value] = part.trim().split('=');
    if (name) cookies[name] = value.join('=');
  }
  return cookies;
}

/**
 * The local test site every driver test loads (tests never use the internet). Static pages come from
 * test/fixtures/site; dynamic routes:
 * - /echo: the request as the server saw it (method, headers, cookies, body) as JSON in <pre id="echo">,
 *   and document.referrer in <pre id="docref">.
 * - /redirect/N: a chain of N 302s ending at /echo?redirected=N.
 * - /missing: 404.  /never: accepts and never answers.  /lazy.png: counted image.
 * - /ua-gate: 403 "Access denied" to a User-Agent naming HeadlessChrome, else the article with the
 *   User-Agent and client hints it got as JSON in <pre id="seen">.
 * - /ads-page?token=T: a page pulling an ad script and banner whose hits are counted per token.
 * - /slow/MS/PATH: PATH (with the query), answered after MS milliseconds: the late resources of the
 *   settle fixtures (test/fixtures/site/settle/).  /tile.png?color=RRGGBB: a 64×64 PNG of one colour.
 * - /held/KEY/PATH: PATH, answered once the test calls release(KEY): a page that stays loading exactly
 *   as long as the test needs (jobs in flight while it acts), not for a guessed number of seconds.
 *   /font.ttf: a web font.
 * - /img-page?src=URL: a page holding one <img id="img" src="URL"> (a signed render link in an <img> tag).
 * The same handler also listens on HTTPS with a self-signed certificate (test/fixtures/tls).
 */
export class TestSite {
  private readonly hitCounts = new Map<string, number>();
  private readonly sockets = new Set<Socket>();
  private readonly servers: (http.Server | https.Server)[] = [];
  private readonly timers = new Set<NodeJS.Timeout>();
  private readonly holds = new Map<string, { released: Promise<void>; release: () => void }>();
  private httpPort = 0;
  private httpsPort = 0;

  static async start(): Promise<TestSite> {
    const site = new TestSite();
    const tls = repoPath('test/fixtures/tls');
    const handler = (request: IncomingMessage, response: ServerResponse): void => {
      site.handle(request, response).catch((error: unknown) => {
        response.statusCode = 500;
        response.end(String(error));
      });
    };
    const plain = http.createServer(handler);
    const secure = https.createServer({ key: await readFile(join(tls, 'key.pem')), cert: await readFile(join(tls, 'cert.pem')) }, handler);
    for (const server of [plain, secure]) {
      server.on('connection', (socket) => {
        site.sockets.add(socket);
        socket.on('close', () => site.sockets.delete(socket));
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      site.servers.push(server);
    }
    site.httpPort = (plain.address() as AddressInfo).port;
    site.httpsPort = (secure.address() as AddressInfo).port;
    return site;
  }

  url(path: string): string {
    return `http://127.0.0.1:${this.httpPort}${path}`;
  }

  httpsUrl(path: string): string {
    return `https://127.0.0.1:${this.httpsPort}${path}`;
  }

  /** How often a path (with its query) was requested. */
  hits(pathWithQuery: string): number {
    return this.hitCounts.get(pathWithQuery) ?? 0;
  }

  /** Answers the requests of /held/KEY/… waiting now, and those to come. */
  release(key: string): void {
    this.holdOf(key).release();
  }

  private holdOf(key: string): { released: Promise<void>; release: () => void } {
    let hold = this.holds.get(key);
    if (!hold) {
      let release = (): void => undefined;
      const released = new Promise<void>((resolve) => (release = resolve));
      hold = { released, release };
      this.holds.set(key, hold);
    }
    return hold;
  }

  async close(): Promise<void> {
    for (const timer of this.timers) clearTimeout(timer);
    for (const hold of this.holds.values()) hold.release();
    for (const socket of this.sockets) socket.destroy();
    await Promise.all(this.servers.map((server) => new Promise<void>((resolve) => server.close(() => resolve()))));
  }

  private async handle(request: IncomingMessage, response: ServerResponse): Promise<void> {
    const url = new URL(request.url ?? '/', 'http://localhost');
    const key = url.pathname + url.search;
    this.hitCounts.set(key, (this.hitCounts.get(key) ?? 0) + 1);
    const body = await new Promise<string>((resolve) => {
      let text = '';
      request.on('data', (chunk: Buffer) => (text += chunk.toString()));
      request.on('end', () => resolve(text));
    });
    const send = (status: number, type: string, content: string | Buffer, headers: Record<string, string> = {}): void => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store', ...headers });
      response.end(content);
    };
    const slow = /^\/slow\/(\d+)(\/.*)$/.exec(url.pathname);
    if (slow) {
      await new Promise<void>((resolve) => {
        const timer = setTimeout(() => {
          this.timers.delete(timer);
          resolve();
        }, Number(slow[1]));
        this.timers.add(timer);
      });
      url.pathname = slow[2]!;
    }
    const held = /^\/held\/([^/]+)(\/.*)$/.exec(url.pathname);
    if (held) {
      await this.holdOf(held[1]!).released;
      url.pathname = held[2]!;
    }
    const redirect = /^\/redirect\/(\d+)$/.exec(url.pathname);
    if (redirect) {
      const left = Number(redirect[1]);
      const total = url.searchParams.get('total') ?? String(left);
      const next = left > 0 ? `/redirect/${left - 1}?total=${total}` : `/echo?redirected=${total}`;
      return send(302, 'text/plain', 'moved', { location: next });
    }
    switch (url.pathname) {
      case '/echo': {
        const echo = { method: request.method, url: key, headers: request.headers, cookies: cookiesOf(request.headers.cookie), body };
        return send(
          200,
          TYPES['.html']!,
          `<!doctype html><html><head><meta charset="utf-8"><title>echo</title></head><body>
<pre id="echo">${escapeHtml(JSON.stringify(echo))}</pre><pre id="docref"></pre>
<script>document.getElementById('docref').textContent = document.referrer;</script></body></html>`,
        );
      }
      case '/missing':
        return send(404, TYPES['.html']!, '<!doctype html><title>missing</title><h1>Not found</h1>');
      case '/ua-gate': {
        // What many sites answer a headless browser: a block page instead of the article a person gets.
        const agent = request.headers['user-agent'] ?? '';
        if (/HeadlessChrome/.test(agent)) return send(403, TYPES['.html']!, '<!doctype html><title>Access denied</title><h1 id="blocked">Access denied: automated browser</h1>');
        const seen = { userAgent: agent, secChUa: request.headers['sec-ch-ua'] ?? null, secChUaPlatform: request.headers['sec-ch-ua-platform'] ?? null };
        return send(200, TYPES['.html']!, `<!doctype html><title>Article</title><h1 id="article">The article</h1><pre id="seen">${escapeHtml(JSON.stringify(seen))}</pre>`);
      }
      case '/never':
        return; // never answered: the socket stays open until the site closes
      case '/tile.png': {
        const color = /^[0-9a-f]{6}$/i.test(url.searchParams.get('color') ?? '') ? `#${url.searchParams.get('color')}` : '#000000';
        return send(
          200,
          TYPES['.png']!,
          await sharp({ create: { width: 64, height: 64, channels: 3, background: color } })
            .png()
            .toBuffer(),
        );
      }
      case '/img-page':
        return send(
          200,
          TYPES['.html']!,
          `<!doctype html><html><head><meta charset="utf-8"><title>img</title></head><body><img id="img" alt="render" src="${escapeHtml(url.searchParams.get('src') ?? '').replace(/"/g, '&quot;')}"></body></html>`,
        );
      case '/font.ttf':
        // Any origin may use it, as font CDNs allow: a source document's origin is opaque ("null"), and a
        // font is a CORS request.
        return send(200, 'font/ttf', await readFile(FONT_FILE), { 'access-control-allow-origin': '*' });
      case '/lazy.png':
        return send(200, TYPES['.png']!, PIXEL_PNG);
      case '/tall':
        return send(200, TYPES['.html']!, tallPageHtml(Number(url.searchParams.get('h') ?? 1000)));
      case '/ads-page': {
        const token = encodeURIComponent(url.searchParams.get('token') ?? '');
        return send(
          200,
          TYPES['.html']!,
          `<!doctype html><html><head><meta charset="utf-8"><title>ads</title></head><body>
<p>Article text.</p>
<script src="/pagead/show_ads.js?token=${token}"></script>
<img src="/ads/banner-728x90.png?token=${token}" alt="ad">
<div class="ad-banner" style="height:90px;background:#ff0000">advertisement</div>
</body></html>`,
        );
      }
    }
    if (url.pathname.startsWith('/pagead/')) {
      return send(200, TYPES['.js']!, "const d = document.createElement('div'); d.id = 'ad-loaded'; document.body.append(d);");
    }
    if (url.pathname.startsWith('/ads/')) return send(200, TYPES['.png']!, PIXEL_PNG);
    const file = normalize(url.pathname).replace(/^([/\\])+/, '');
    if (file.includes('..')) return send(400, 'text/plain', 'bad path');
    try {
      const content = await readFile(join(repoPath('test/fixtures/site'), file));
      return send(200, TYPES[extname(file)] ?? 'application/octet-stream', content);
    } catch {
      return send(404, TYPES['.html']!, '<!doctype html><title>missing</title><h1>Not found</h1>');
    }
  }
}
