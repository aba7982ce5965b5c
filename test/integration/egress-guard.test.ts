import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { expect } from 'chai';
import { createLogger } from '../../core/logger.js';
import { EgressGuard, type EgressPass } from '../../node-agent/egress/egress-guard.js';
import { mappedLookup } from '../support/egress-test-hosts.js';
import { TestSite } from '../support/test-site.js';

/** A CONNECT-only upstream proxy, standing in for a country proxy: it records each tunnel's target. */
async function startConnectProxy(): Promise<{ url: string; targets: string[]; close(): Promise<void> }> {
  const targets: string[] = [];
  const tunnels = new Set<net.Socket>();
  const server = http.createServer((_req, res) => res.writeHead(405).end());
  server.on('connect', (req: http.IncomingMessage, client: net.Socket) => {
    targets.push(req.url ?? '');
    tunnels.add(client);
    const [host = '', port = ''] = (req.url ?? '').split(/:(?=\d+$)/);
    const out = net.connect(Number(port), host, () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      out.pipe(client).pipe(out);
    });
    out.on('error', () => client.destroy());
    client.on('error', () => out.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    targets,
    // A tunnel is no HTTP connection any more: closeAllConnections() does not see it.
    close: () => {
      for (const t of tunnels) t.destroy();
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

/** GET an absolute URI through the guard, as a browser does over a plain-http proxy (Host: the target). */
function viaGuard(pass: EgressPass | null, proxyPort: number, url: string, credentials?: string): Promise<{ status: number; body: string }> {
  const auth =
    credentials ??
    (pass
      ? (() => {
          const u = new URL(pass.proxy);
          return `${u.username}:${u.password}`;
        })()
      : null);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: '127.0.0.1', port: proxyPort, path: url, headers: { host: new URL(url).host, ...(auth ? { 'proxy-authorization': `Basic ${Buffer.from(auth).toString('base64')}` } : {}) } },
      (res) => {
        let body = '';
        res.on('data', (c: Buffer) => (body += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
      },
    );
    req.on('error', reject);
    req.end();
  });
}

describe('egress guard proxy: credentials and a country proxy behind it', function () {
  this.timeout(30_000);
  let site: TestSite;
  let guard: EgressGuard;
  let upstream: Awaited<ReturnType<typeof startConnectProxy>>;
  let port: number;
  let guardPort: number;

  before(async () => {
    site = await TestSite.start();
    port = Number(new URL(site.url('/')).port);
    upstream = await startConnectProxy();
    // 127.0.0.1 is allowlisted here, so the site counts as an allowed destination; rebind.test resolves to
    // 10.0.0.5, which is not, and must never reach the upstream proxy.
    guard = new EgressGuard({ allowlist: ['127.0.0.1/32'], lookup: mappedLookup({ 'site.test': '127.0.0.1', 'rebind.test': '10.0.0.5' }) }, createLogger('silent'));
    await guard.start();
    const probe = await guard.open(0, null);
    guardPort = Number(new URL(probe.proxy).port);
    probe.close();
  });
  after(async () => {
    await guard?.stop();
    await upstream?.close();
    await site?.close();
  });

  it('asks for credentials, and refuses unknown or closed ones', async () => {
    expect((await viaGuard(null, guardPort, site.url('/echo?cred=none'))).status).to.equal(407);
    expect((await viaGuard(null, guardPort, site.url('/echo?cred=bad'), '1:not-the-password')).status).to.equal(407);
    const pass = await guard.open(7, null);
    pass.close();
    expect((await viaGuard(pass, guardPort, site.url('/echo?cred=closed'))).status).to.equal(407);
    expect(site.hits('/echo?cred=none') + site.hits('/echo?cred=bad') + site.hits('/echo?cred=closed')).to.equal(0);
  });

  it('tunnels allowed traffic through the country proxy to the CHECKED address, never the name', async () => {
    const pass = await guard.open(8, upstream.url);
    try {
      const answer = await viaGuard(pass, guardPort, `http://site.test:${port}/echo?via=upstream`);
      expect(answer.status).to.equal(200);
      expect(answer.body).to.include('site.test');
      expect(upstream.targets).to.deep.equal([`127.0.0.1:${port}`]);
      // Refused at the connection, with no answer at all: a refusal page would be a page of the refused
      // origin, where a capture's scripts could run (issue #14).
      const blocked = await viaGuard(pass, guardPort, `http://rebind.test:${port}/echo?via=upstream-blocked`).then(
        (a) => `answered ${a.status}`,
        (err: NodeJS.ErrnoException) => err.code,
      );
      expect(blocked).to.equal('ECONNRESET');
      expect(upstream.targets, 'a blocked request never reaches the country proxy').to.have.length(1);
      expect(pass.blocked()).to.deep.equal([{ host: 'rebind.test', port, address: '10.0.0.5', kind: 'private' }]);
    } finally {
      pass.close();
    }
  });
});

describe('egress guard proxy: a pass with a port of its own (the selenium driver)', function () {
  this.timeout(30_000);
  let site: TestSite;
  let guard: EgressGuard;
  let port: number;

  before(async () => {
    site = await TestSite.start();
    port = Number(new URL(site.url('/')).port);
    guard = new EgressGuard({ allowlist: ['127.0.0.1/32'], lookup: mappedLookup({ 'site.test': '127.0.0.1', 'rebind.test': '10.0.0.5' }), passes: 'port' }, createLogger('silent'));
    await guard.start();
  });
  after(async () => {
    await guard?.stop();
    await site?.close();
  });

  it('forwards what it allows without credentials, refuses a private address and records it, and answers nothing once closed', async () => {
    const pass = await guard.open(9, null);
    const passPort = Number(new URL(pass.proxy).port);
    expect(new URL(pass.proxy).username, 'no credentials: WebDriver cannot send them').to.equal('');
    expect(passPort).to.not.equal(Number(new URL(guard.browserProxy()).port));
    const other = await guard.open(10, null);
    try {
      expect((await viaGuard(null, passPort, `http://site.test:${port}/echo?pass=own`)).status).to.equal(200);
      const refused = await viaGuard(null, passPort, `http://rebind.test:${port}/echo?pass=own-blocked`).then(
        (a) => `answered ${a.status}`,
        (err: NodeJS.ErrnoException) => err.code,
      );
      expect(refused).to.equal('ECONNRESET');
      expect(pass.blocked()).to.deep.equal([{ host: 'rebind.test', port, address: '10.0.0.5', kind: 'private' }]);
      expect(other.blocked(), 'another pass keeps its own log').to.deep.equal([]);
    } finally {
      pass.close();
      other.close();
    }
    const afterClose = await viaGuard(null, passPort, `http://site.test:${port}/echo?pass=closed`).then(
      (a) => `answered ${a.status}`,
      (err: NodeJS.ErrnoException) => err.code,
    );
    expect(afterClose).to.be.oneOf(['ECONNREFUSED', 'ECONNRESET', 'answered 407']);
    expect(site.hits('/echo?pass=closed')).to.equal(0);
  });
});
