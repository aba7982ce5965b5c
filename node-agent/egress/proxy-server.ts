import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import type { Logger } from '../../core/logger.js';
import type { PrivateAllowlist } from '../../core/net/private-allowlist.js';
import type { JobSession } from './job-sessions.js';
import { resolveDestination, type HostLookup } from '../../core/net/resolve-destination.js';
import { openConnection } from './upstream.js';
import { unreachableCause } from './unreachable-cause.js';

/** Hop-by-hop and proxy headers that are the guard's business, never the destination's. */
const PROXY_HEADERS = ['proxy-authorization', 'proxy-connection', 'connection', 'keep-alive'];
const AUTH_CHALLENGE = 'Basic realm="shotfarm egress guard"';

export interface ProxyDeps {
  /** the capture a request belongs to, from its Proxy-Authorization header; null: none (407) */
  identify(authorization: string | undefined): JobSession | null;
  lookup: HostLookup;
  allowlist: PrivateAllowlist;
  log: Logger;
}

/**
 * The egress guard's HTTP forward proxy, on 127.0.0.1: absolute-URI requests (plain http) and CONNECT
 * tunnels (https, and every WebSocket). Each request must belong to a capture (`identify`: by its
 * credentials, or by the port of a pass of its own); its host is resolved once, checked, and the
 * connection goes to exactly the checked address.
 */
export async function startProxyServer(deps: ProxyDeps): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => void forward(deps, req, res));
  server.on('connect', (req: IncomingMessage, socket: Duplex, head: Buffer) => void tunnel(deps, req, socket, head));
  server.on('connection', (socket: Socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    // Port 0: any free port; loopback only, so the guard is never an open proxy for the network.
    server.listen(0, '127.0.0.1', resolve);
  });
  return {
    port: (server.address() as AddressInfo).port,
    async close() {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The destination's verdict for one request, recorded in the capture's log when it is refused. */
async function decide(deps: ProxyDeps, session: JobSession, host: string, port: number): Promise<{ address: string } | { refusal: true }> {
  const destination = await resolveDestination(host, deps.lookup, deps.allowlist);
  if (destination.allowed) return { address: destination.address };
  session.blocked.push({ host, port, address: destination.address, kind: destination.kind });
  deps.log.info({ job: session.username, host, address: destination.address, kind: destination.kind }, 'egress guard blocked a request');
  return { refusal: true };
}

async function forward(deps: ProxyDeps, req: IncomingMessage, res: ServerResponse): Promise<void> {
  const session = deps.identify(req.headers['proxy-authorization']);
  if (!session) {
    res.writeHead(407, { 'Proxy-Authenticate': AUTH_CHALLENGE, 'Content-Length': '0' }).end();
    return;
  }
  let target: URL;
  try {
    target = new URL(req.url ?? '');
    if (target.protocol !== 'http:') throw new Error('not http');
  } catch {
    res.writeHead(400, { 'Content-Type': 'text/plain' }).end('the egress guard forwards absolute http:// URIs and CONNECT only');
    return;
  }
  try {
    const port = Number(target.port) || 80;
    const verdict = await decide(deps, session, target.hostname, port);
    if ('refusal' in verdict) {
      // Refused at the connection, like a CONNECT: an answer with a body would be a page of the refused
      // URL's origin, where the browser would run the capture's scripts and which it would capture.
      res.destroy();
      return;
    }
    const socket = await openConnection(verdict.address, port, session.upstream);
    const headers = { ...req.headers };
    for (const name of PROXY_HEADERS) delete headers[name];
    // One destination connection per request: the browser's keep-alive is with the guard, not past it.
    headers.connection = 'close';
    const upstream = http.request({ createConnection: () => socket, method: req.method, path: `${target.pathname}${target.search}`, headers, setHost: false }, (answer) => {
      res.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(res);
    });
    // A socket that went through a country proxy's handshake is paused; it flows once the parser listens.
    upstream.on('socket', (s) => s.resume());
    upstream.on('error', (err) => {
      // The destination hung up before it answered: no page of the guard's own, the browser sees it end.
      if (!res.headersSent) {
        session.unreachable.push({ host: target.hostname, port, cause: unreachableCause(err) });
        res.socket?.destroy();
      } else res.destroy();
    });
    req.pipe(upstream);
  } catch (err) {
    // No page of the guard's own (it would be captured as the site's): the browser sees the connection
    // end, and the capture's log says why, for the record's plain sentence (blocked-verdict.ts).
    session.unreachable.push({ host: target.hostname, port: Number(target.port) || 80, cause: unreachableCause(err) });
    if (!res.headersSent) res.socket?.destroy();
    else res.destroy();
  }
}

async function tunnel(deps: ProxyDeps, req: IncomingMessage, client: Duplex, head: Buffer): Promise<void> {
  client.on('error', () => client.destroy());
  const answer = (status: string, extra = ''): void => {
    client.end(`HTTP/1.1 ${status}\r\n${extra}Content-Length: 0\r\nConnection: close\r\n\r\n`);
  };
  const session = deps.identify(req.headers['proxy-authorization']);
  if (!session) return answer('407 Proxy Authentication Required', `Proxy-Authenticate: ${AUTH_CHALLENGE}\r\n`);
  // CONNECT's target is host:port, an IPv6 address in brackets.
  const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(req.url ?? '');
  if (!match?.[1] || !match[2]) return answer('400 Bad Request');
  try {
    const verdict = await decide(deps, session, match[1], Number(match[2]));
    if ('refusal' in verdict) return answer('403 Forbidden');
    const destination = await openConnection(verdict.address, Number(match[2]), session.upstream);
    destination.on('error', () => client.destroy());
    client.on('close', () => destination.destroy());
    destination.on('close', () => client.destroy());
    client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
    if (head.length > 0) destination.write(head);
    destination.pipe(client).pipe(destination);
    destination.resume();
  } catch (err) {
    session.unreachable.push({ host: match[1].replace(/^\[(.*)\]$/, '$1'), port: Number(match[2]), cause: unreachableCause(err) });
    answer('502 Bad Gateway');
  }
}
