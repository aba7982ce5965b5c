import net, { type AddressInfo } from 'node:net';
import { expect } from 'chai';
import type { HostLookup } from '../../core/net/resolve-destination.js';
import { AllowedSite, mappedLookup, publicLookingAddress } from '../support/egress-test-hosts.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';

const BROWSERS = ['chrome', 'firefox'] as const;
/** An allowlisted loopback address other than the test site's 127.0.0.1 (Linux answers on all of 127/8). */
const INTRANET = '127.0.0.2';
const BLOCKED_MESSAGE = /^Blocked: \S+ resolves to \S+, a (loopback|link-local) address; captures of private networks are disabled \(SHOTFARM_ALLOW_PRIVATE_TARGETS\)$/;

/** A name the resolver answers "no such host" for, as getaddrinfo does (the machine may have no DNS at all). */
const MISSING_HOST = 'no-such-host.test';
function withMissingHost(lookup: HostLookup): HostLookup {
  return async (host) => {
    if (host === MISSING_HOST) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' });
    return lookup(host);
  };
}

/** A port on `address` where nothing listens: bound once by the system, then released. */
async function closedPort(address: string): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, address, resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

interface Row {
  id: number;
  status: string;
  cost: number;
  error: string;
  warnings: string[];
  final_url: string;
}

async function create(api: TestApi, account: TestAccount, url: string, browser: string, extra = ''): Promise<number> {
  const res = await call(api.url, `/screenshot/create?url=${encodeURIComponent(url)}&browser=${browser}${extra}`, { key: account.key });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return Number(res.body.data[0].id);
}

/** Waits until none of these records is processing, and returns them. */
async function settled(api: TestApi, ids: number[]): Promise<Map<number, Row>> {
  const deadline = Date.now() + 240_000;
  for (;;) {
    const rows = await api.database.db('screenshots').whereIn('id', ids).select('id', 'status', 'cost', 'error', 'warnings', 'final_url');
    if (rows.every((r) => r.status !== 'processing') || Date.now() > deadline) {
      return new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id), warnings: typeof r.warnings === 'string' ? JSON.parse(r.warnings) : r.warnings }]));
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe('SSRF protection: the egress guard (SHOTFARM_ALLOW_PRIVATE_TARGETS=false)', function () {
  this.timeout(300_000);
  let api: TestApi;
  let site: TestSite;
  let allowed: AllowedSite;
  let intranet: AllowedSite;
  let account: TestAccount;
  let port: number;

  before(async () => {
    site = await TestSite.start();
    port = Number(new URL(site.url('/')).port);
    // The pages that must load are served on an address the guard lets through on its own merits: this
    // machine's public-looking address when it has one, else an allowlisted loopback address.
    const publicAddress = publicLookingAddress();
    allowed = await AllowedSite.start(publicAddress ?? INTRANET);
    intranet = publicAddress ? await AllowedSite.start(INTRANET) : allowed;
    api = await startTestApi(
      'pglite',
      {
        SHOTFARM_ALLOW_PRIVATE_TARGETS: 'false',
        SHOTFARM_AGENT_BROWSERS: 'chrome,firefox',
        SHOTFARM_PRIVATE_TARGET_ALLOWLIST: `${INTRANET}/32,allowed-host.test`,
      },
      {
        agent: true,
        // Host names the guard resolves in this test: the check is on these RESOLVED addresses.
        agentOptions: { lookup: withMissingHost(mappedLookup({ 'www.public-looking.com': '127.0.0.1', 'intranet.test': INTRANET, 'allowed-host.test': '127.0.0.1' })) },
      },
    );
    account = await api.account(1000);
  });
  after(async () => {
    await api?.stop();
    await site?.close();
    await allowed?.close();
    if (intranet !== allowed) await intranet?.close();
  });

  for (const browser of BROWSERS) {
    it(`${browser}: a private page ends in error at no cost, whatever the URL's form, and the browser never reaches it`, async () => {
      // Every case asks for its own path, so the test site's hit counter shows whether it was reached.
      const cases: Record<string, (path: string) => string> = {
        'loopback v4': (p) => `http://127.0.0.1:${port}${p}`,
        localhost: (p) => `http://localhost:${port}${p}`,
        'loopback v6': (p) => `http://[::1]:${port}${p}`,
        decimal: (p) => `http://2130706433:${port}${p}`,
        hex: (p) => `http://0x7f.0.0.1:${port}${p}`,
        octal: (p) => `http://0177.0.0.1:${port}${p}`,
        'IPv4-mapped IPv6': (p) => `http://[::ffff:127.0.0.1]:${port}${p}`,
        'NAT64 IPv6': (p) => `http://[64:ff9b::7f00:1]:${port}${p}`,
        'public-looking name resolving to loopback': (p) => `http://www.public-looking.com:${port}${p}`,
        'https (CONNECT)': (p) => site.httpsUrl(p),
        'redirect from an allowed page': (p) => `${allowed.origin}/to?u=${encodeURIComponent(site.url(p))}`,
        'cloud metadata': () => 'http://169.254.169.254/latest/meta-data/',
      };
      const ids = new Map<string, { id: number; path: string }>();
      for (const [name, url] of Object.entries(cases)) {
        const path = `/echo?ssrf=${browser}-${encodeURIComponent(name)}`;
        ids.set(name, { id: await create(api, account, url(path), browser), path });
      }
      const rows = await settled(
        api,
        [...ids.values()].map((c) => c.id),
      );
      for (const [name, { id, path }] of ids) {
        const row = rows.get(id);
        expect(row, name).to.not.equal(undefined);
        expect(row?.status, `${name}: ${JSON.stringify(row)}`).to.equal('error');
        expect(row?.error, name).to.match(BLOCKED_MESSAGE);
        expect(row?.cost, name).to.equal(0);
        expect(site.hits(path), `${name} reached the private site`).to.equal(0);
      }
      expect(rows.get(ids.get('cloud metadata')!.id)?.error).to.equal(
        'Blocked: 169.254.169.254 resolves to 169.254.169.254, a link-local address; captures of private networks are disabled (SHOTFARM_ALLOW_PRIVATE_TARGETS)',
      );
      expect(rows.get(ids.get('public-looking name resolving to loopback')!.id)?.error).to.include('www.public-looking.com resolves to 127.0.0.1, a loopback address');
      expect(allowed.hits.get('/to'), 'the allowed page that redirects was loaded').to.be.greaterThan(0);
      const debits = await api.database.db('credit_ledger').whereIn(
        'screenshot_id',
        [...ids.values()].map((c) => c.id),
      );
      expect(debits, 'no ledger row for a blocked capture').to.deep.equal([]);
    });

    it(`${browser}: private subresources (image, fetch, WebSocket) of an allowed page are blocked and reported; the page finishes`, async () => {
      const img = site.url(`/lazy.png?ssrf=img-${browser}`);
      const fetched = `http://www.public-looking.com:${port}/echo?ssrf=fetch-${browser}`;
      const ws = 'ws://10.0.0.5:8080/socket';
      const url = `${allowed.origin}/subresources?${new URLSearchParams({ img, fetch: fetched, ws }).toString()}`;
      // A second's delay: the fetch and the socket start from a script and need not block the load event.
      const id = await create(api, account, url, browser, '&delay=1');
      const row = (await settled(api, [id])).get(id);
      expect(row?.status, JSON.stringify(row)).to.equal('finished');
      expect(row?.cost).to.be.greaterThan(0);
      const blocked = row?.warnings.filter((w) => w.startsWith('Blocked a request to')) ?? [];
      expect(
        blocked.find((w) => w.startsWith(`Blocked a request to 127.0.0.1:${port}: 127.0.0.1 resolves to 127.0.0.1, a loopback address`)),
        JSON.stringify(row?.warnings),
      ).to.be.a('string');
      expect(
        blocked.find((w) => w.startsWith(`Blocked a request to www.public-looking.com:${port}: www.public-looking.com resolves to 127.0.0.1`)),
        JSON.stringify(row?.warnings),
      ).to.be.a('string');
      expect(
        blocked.find((w) => w.startsWith('Blocked a request to 10.0.0.5:8080: 10.0.0.5 resolves to 10.0.0.5, a private address')),
        JSON.stringify(row?.warnings),
      ).to.be.a('string');
      expect(site.hits(`/lazy.png?ssrf=img-${browser}`)).to.equal(0);
      expect(site.hits(`/echo?ssrf=fetch-${browser}`)).to.equal(0);
    });

    it(`${browser}: a page the guard cannot reach ends in error at no cost, with one sentence naming host and cause, and no page of the guard's own`, async () => {
      const refused = await closedPort(INTRANET);
      const cases = {
        'no such host': { url: `http://${MISSING_HOST}/page`, error: `Could not resolve host ${MISSING_HOST}.` },
        'no such host, https': { url: `https://${MISSING_HOST}/page`, error: `Could not resolve host ${MISSING_HOST}.` },
        refused: { url: `http://${INTRANET}:${refused}/page`, error: `${INTRANET}:${refused} refused the connection.` },
        'refused, https': { url: `https://${INTRANET}:${refused}/page`, error: `${INTRANET}:${refused} refused the connection.` },
      };
      const ids = new Map<string, number>();
      for (const [name, c] of Object.entries(cases)) ids.set(name, await create(api, account, c.url, browser));
      const rows = await settled(api, [...ids.values()]);
      for (const [name, c] of Object.entries(cases)) {
        const row = rows.get(ids.get(name)!);
        expect(row?.status, `${name}: ${JSON.stringify(row)}`).to.equal('error');
        expect(row?.error, name).to.equal(c.error);
        expect(row?.cost, name).to.equal(0);
      }
      const debits = await api.database.db('credit_ledger').whereIn('screenshot_id', [...ids.values()]);
      expect(debits, 'no ledger row for a page that could not be reached').to.deep.equal([]);
    });

    it(`${browser}: the allowlist lets a listed network and a listed host name through`, async () => {
      const byNetwork = await create(api, account, `${intranet.origin}/page?${browser}`, browser);
      const byResolvedNetwork = await create(api, account, `http://intranet.test:${intranet.port}/page?${browser}`, browser);
      const hostPath = `/echo?ssrf=allowed-host-${browser}`;
      const byHost = await create(api, account, `http://allowed-host.test:${port}${hostPath}`, browser);
      const rows = await settled(api, [byNetwork, byResolvedNetwork, byHost]);
      for (const id of [byNetwork, byResolvedNetwork, byHost]) expect(rows.get(id)?.status, JSON.stringify(rows.get(id))).to.equal('finished');
      expect(site.hits(hostPath)).to.equal(1);
    });
  }
});

describe('SSRF protection off (SHOTFARM_ALLOW_PRIVATE_TARGETS=true)', function () {
  this.timeout(120_000);
  let api: TestApi;
  let site: TestSite;
  before(async () => {
    site = await TestSite.start();
    api = await startTestApi('pglite', { SHOTFARM_ALLOW_PRIVATE_TARGETS: 'true', SHOTFARM_AGENT_BROWSERS: 'chrome' }, { agent: true });
  });
  after(async () => {
    await api?.stop();
    await site?.close();
  });

  it('the same private page finishes, loaded straight from 127.0.0.1', async () => {
    const account = await api.account(10);
    const id = await create(api, account, site.url('/echo?ssrf=off'), 'chrome');
    const row = (await settled(api, [id])).get(id);
    expect(row?.status, JSON.stringify(row)).to.equal('finished');
    expect(site.hits('/echo?ssrf=off')).to.equal(1);
  });
});
