import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { localGridOptions } from '../../grid/selenium/local-grid-options.js';
import { SeleniumGrid } from '../../grid/selenium/selenium-grid.js';
import { HostileSite } from '../support/hostile-site.js';
import { PacketListener } from '../support/packet-listener.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';

/**
 * Issue #14 (items 1 and 2), tested as the attacker worked: pages served from an address the egress guard
 * allows aim every request they can make at a listener on loopback (TCP and UDP, IPv4 and IPv6) that the
 * guard does not allow, while the capture runs, while it closes (pagehide, unload, popups opened then), and
 * after. Nothing may arrive there, ever: every byte a browser sends goes through the guard.
 */
const BROWSERS = ['chrome', 'firefox', 'brave'] as const;
/** The hostile pages' address: allowlisted, like a site on the internet. The listener's 127.0.0.1 and ::1 are not. */
const HOSTILE_ADDRESS = '127.0.0.2';
/** The issue saw a popup still sending ~18 s after its capture had ended. */
const AFTER_CAPTURE_MS = 30_000;

interface Row {
  id: number;
  status: string;
  cost: number;
  error: string | null;
  warnings: string[];
}

async function create(api: TestApi, account: TestAccount, query: Record<string, string>): Promise<number> {
  const res = await call(api.url, `/screenshot/create?${new URLSearchParams(query).toString()}`, { key: account.key });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return Number(res.body.data[0].id);
}

async function settled(api: TestApi, ids: number[]): Promise<Map<number, Row>> {
  const deadline = Date.now() + 240_000;
  for (;;) {
    const rows = await api.database.db('screenshots').whereIn('id', ids).select('id', 'status', 'cost', 'error', 'warnings');
    if (rows.every((r) => r.status !== 'processing') || Date.now() > deadline) {
      return new Map(rows.map((r) => [Number(r.id), { ...r, id: Number(r.id), warnings: typeof r.warnings === 'string' ? JSON.parse(r.warnings) : r.warnings }]));
    }
    await new Promise((resolve) => setTimeout(resolve, 300));
  }
}

/** The captures every suite runs in each browser: the hostile page, and script_inline on a refused URL. */
async function attackIn(api: TestApi, account: TestAccount, site: HostileSite, listener: PacketListener, browsers: readonly string[], runTag: string): Promise<{ pages: number[]; refused: number[] }> {
  const pages: number[] = [];
  const refused: number[] = [];
  for (const browser of browsers) {
    // A delay keeps the page alive while its WebRTC gathers candidates and checks the remote one.
    pages.push(await create(api, account, { url: `${site.origin}/attack?b=${browser}&r=${runTag}`, browser, delay: '2' }));
    refused.push(
      await create(api, account, {
        url: `http://127.0.0.1:${listener.port}/refused-${browser}`,
        browser,
        script_inline: site.inlineScript(`${browser}-${runTag}`),
        delay: '1',
      }),
    );
  }
  return { pages, refused };
}

function expectNothingArrived(listener: PacketListener, when: string, protocol?: 'udp'): void {
  const arrived = listener.arrivals.filter((a) => protocol === undefined || a.protocol === protocol);
  expect(arrived.length, `${arrived.length} ${protocol ?? 'tcp/udp'} arrivals at the loopback listener ${when}:\n${listener.describe()}`).to.equal(0);
}

function expectCaptured(rows: Map<number, Row>, pages: number[], refused: number[], site: HostileSite, tags: string[]): void {
  for (const id of pages) expect(rows.get(id)?.status, JSON.stringify(rows.get(id))).to.equal('finished');
  for (const id of refused) {
    const row = rows.get(id);
    expect(row?.status, JSON.stringify(row)).to.equal('error');
    expect(row?.error).to.match(/^Blocked: 127\.0\.0\.1 resolves to 127\.0\.0\.1, a loopback address/);
    expect(row?.cost).to.equal(0);
  }
  // The request's script never runs on a page the guard refused (it would run in the blocked URL's origin).
  for (const tag of tags) expect(site.hits.get(`/ran?tag=${tag}`) ?? 0, `script_inline ran on the refused page (${tag})`).to.equal(0);
}

describe('egress guard: nothing a browser sends goes around it (issue #14)', function () {
  this.timeout(400_000);
  /** `serve`: api, in-process queue and agent, PGlite. */
  let embedded: TestApi;
  /** api and agent over NATS JetStream and Postgres (one process here; the agent is built as `shotfarm agent` builds it). */
  let distributed: TestApi;
  /** an embedded api whose agent drives a Selenium Grid on this machine: each grid session has a guard port of its own */
  let selenium: TestApi;
  let grid: SeleniumGrid;
  let embeddedAccount: TestAccount;
  let distributedAccount: TestAccount;
  let seleniumAccount: TestAccount;

  before(async () => {
    const guarded = { SHOTFARM_ALLOW_PRIVATE_TARGETS: 'false', SHOTFARM_PRIVATE_TARGET_ALLOWLIST: `${HOSTILE_ADDRESS}/32` };
    embedded = await startTestApi('pglite', { ...guarded, SHOTFARM_AGENT_BROWSERS: BROWSERS.join(',') }, { agent: true });
    embeddedAccount = await embedded.account(1000);
    distributed = await startTestApi(
      'postgres',
      {
        ...guarded,
        SHOTFARM_AGENT_BROWSERS: 'chrome',
        NATS_URL: 'nats://127.0.0.1:4222',
        SHOTFARM_NATS_PREFIX: `sfescape_${randomBytes(4).toString('hex')}`,
      },
      { agent: true },
    );
    distributedAccount = await distributed.account(1000);
    grid = await SeleniumGrid.start(localGridOptions());
    selenium = await startTestApi('pglite', { ...guarded, SHOTFARM_DRIVER: 'selenium', SELENIUM_GRID_URL: grid.url, SHOTFARM_AGENT_BROWSERS: 'chrome' }, { agent: true });
    seleniumAccount = await selenium.account(1000);
  });
  after(async () => {
    await embedded?.stop();
    await distributed?.stop();
    await selenium?.stop();
    await grid?.stop();
  });

  it('WebRTC sends no UDP: no STUN/TURN server and no remote candidate on loopback is reached, in chrome, firefox and brave', async () => {
    const listener = await PacketListener.start();
    const site = await HostileSite.start(HOSTILE_ADDRESS, listener.port);
    try {
      const pages: number[] = [];
      for (const browser of BROWSERS) pages.push(await create(embedded, embeddedAccount, { url: `${site.origin}/attack?b=${browser}&r=rtc`, browser, delay: '2' }));
      const rows = await settled(embedded, pages);
      for (const id of pages) expect(rows.get(id)?.status, JSON.stringify(rows.get(id))).to.equal('finished');
      for (const browser of BROWSERS) expect(site.hits.get(`/attack?b=${browser}&r=rtc`), `the hostile page was loaded in ${browser}`).to.equal(1);
      expectNothingArrived(listener, 'from WebRTC', 'udp');
    } finally {
      await site.close();
      await listener.close();
    }
  });

  it(`every teardown path (pagehide, unload, beforeunload, visibilitychange, popups, keepalive, beacon, sockets, WebTransport, workers, frames) stays behind the guard, embedded (chrome, firefox, brave), distributed (chrome) and through a Selenium Grid (chrome), also ${AFTER_CAPTURE_MS / 1000} s after the captures`, async () => {
    const listener = await PacketListener.start();
    const site = await HostileSite.start(HOSTILE_ADDRESS, listener.port);
    try {
      const runTag = randomBytes(3).toString('hex');
      const [inEmbedded, inDistributed, inSelenium] = await Promise.all([
        attackIn(embedded, embeddedAccount, site, listener, BROWSERS, runTag),
        attackIn(distributed, distributedAccount, site, listener, ['chrome'], `${runTag}d`),
        attackIn(selenium, seleniumAccount, site, listener, ['chrome'], `${runTag}s`),
      ]);
      expectCaptured(
        await settled(embedded, [...inEmbedded.pages, ...inEmbedded.refused]),
        inEmbedded.pages,
        inEmbedded.refused,
        site,
        BROWSERS.map((b) => `${b}-${runTag}`),
      );
      expectCaptured(await settled(distributed, [...inDistributed.pages, ...inDistributed.refused]), inDistributed.pages, inDistributed.refused, site, [`chrome-${runTag}d`]);
      expectCaptured(await settled(selenium, [...inSelenium.pages, ...inSelenium.refused]), inSelenium.pages, inSelenium.refused, site, [`chrome-${runTag}s`]);
      expectNothingArrived(listener, 'when the captures ended');
      await new Promise((resolve) => setTimeout(resolve, AFTER_CAPTURE_MS));
      expectNothingArrived(listener, `${AFTER_CAPTURE_MS / 1000} s after the captures`);
    } finally {
      await site.close();
      await listener.close();
    }
  });
});
