import { expect } from 'chai';
import { chromium, type Browser, type Page } from 'playwright-core';
import type { NodeStatus } from '../../core/contracts/node-registry.js';
import { PASSWORD, signupAdmin } from '../support/auth-helpers.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';
import { until } from '../support/wait-until.js';

/** Debian's Chromium: browsers cannot be downloaded here. */
const CHROMIUM = '/usr/lib/chromium/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/**
 * A second node offering firefox with no slot, whose heartbeats the test sends itself: its firefox job
 * stays queued (nothing takes it), and it can be drained and undrained without leaving. The embedded
 * chrome agent is real: it captures, and a drain from the page makes it leave.
 */
const STANDBY: NodeStatus = {
  id: 'standby (heartbeats sent by the test)',
  host: 'localhost',
  browsers: [{ name: 'firefox', version: 'none', driver: 'playwright' }],
  countries: [],
  slots: 0,
  inFlight: 0,
  jobsDone: 0,
  failures: 0,
  startedAt: new Date().toISOString(),
  draining: false,
  rssBytes: 1.5 * 1024 ** 3,
};

/** The dashboard's Nodes page in a real Chromium against a running control plane with an embedded chrome agent. */
describe('dashboard Nodes page: queue, throughput and error rate per browser, drain and undrain', function () {
  this.timeout(120_000);
  let api: TestApi;
  let site: TestSite;
  let browser: Browser;
  let page: Page;
  let beat: NodeJS.Timeout;
  const consoleErrors: string[] = [];
  const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });
  const nodes = () => page.getByRole('table', { name: 'Live nodes of the farm' });
  const browsers = () => page.getByRole('table', { name: 'Queue and throughput per browser' });
  const rowOf = (table: ReturnType<Page['getByRole']>, name: string) => table.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
  const listed = async (id: string): Promise<NodeStatus | undefined> => (await api.parts.registry.list()).find((n) => n.id === id);

  before(async () => {
    site = await TestSite.start();
    // Heartbeats every second: the agent sees a drain request within a second.
    api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_AGENT_SLOTS: '1', SHOTFARM_HEARTBEAT_SECONDS: '1' }, { agent: true });
    await api.parts.registry.heartbeat(STANDBY);
    beat = setInterval(() => void api.parts.registry.heartbeat(STANDBY), 500);
    const account = await api.account(100);
    // One finished and one failed chrome capture, then a firefox job nobody takes.
    const ids: number[] = [];
    for (const url of [site.url('/target.html'), 'http://127.0.0.1:9/refused']) {
      const created = await call(api.url, `/screenshot/create?browser=chrome&cache=0&url=${encodeURIComponent(url)}`, { key: account.key });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      ids.push(created.body.data[0].id as number);
    }
    const statuses = await Promise.all(ids.map(async (id) => (await call(api.url, `/screenshot/info?id=${id}&wait=60`, { key: account.key })).body.data.status as string));
    expect(statuses).to.deep.equal(['finished', 'error']);
    const queued = await call(api.url, `/screenshot/create?browser=firefox&url=${encodeURIComponent(site.url('/target.html'))}`, { key: account.key });
    expect(queued.status, JSON.stringify(queued.body)).to.equal(200);

    const admin = await signupAdmin(api);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(`${msg.text()} (${msg.location().url})`);
    });
    page.on('pageerror', (err) => consoleErrors.push(`page error: ${err.message}`));
    // Drain asks for confirmation.
    page.on('dialog', (dialog) => void dialog.accept());
    await page.goto(`${api.plane.url}/`);
    await heading('Log in').waitFor();
    await page.getByLabel('Email', { exact: true }).fill(admin.user.email as string);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await heading('Overview').waitFor();
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Nodes', exact: true }).click();
    await heading('Nodes').waitFor();
  });

  after(async () => {
    clearInterval(beat);
    await browser?.close();
    await api?.stop();
    await site?.close();
  });

  it("shows per browser the jobs queued, the oldest one's wait, captures per minute and the error rate", async () => {
    await browsers().waitFor();
    const chrome = await rowOf(browsers(), 'chrome').innerText();
    // 2 captures in the 15-minute window: 0.13 a minute, one of them in error.
    expect(chrome.split('\t').map((c) => c.trim())).to.deep.equal(['chrome', '0', '—', '0.13', '50% (1 of 2)']);
    const firefox = (await rowOf(browsers(), 'firefox').innerText()).split('\t').map((c) => c.trim());
    expect(firefox.slice(0, 2)).to.deep.equal(['firefox', '1']);
    expect(firefox[2]).to.match(/^\d+ s$/);
    expect(firefox.slice(3)).to.deep.equal(['0.00', '—']);
    // The page polls: the queued job's wait grows on screen.
    const first = Number(firefox[2]!.replace(' s', ''));
    await until('the wait to grow', async () => Number((await rowOf(browsers(), 'firefox').getByRole('cell').nth(2).innerText()).replace(' s', '')) > first, 20_000);
  });

  it("shows each node's memory (its process tree's resident size), human readable", async () => {
    const MEMORY_COLUMN = 5;
    const memory = (id: string) => rowOf(nodes(), id).getByRole('cell').nth(MEMORY_COLUMN);
    await rowOf(nodes(), STANDBY.id).waitFor();
    expect(await nodes().getByRole('columnheader').nth(MEMORY_COLUMN).innerText()).to.equal('Memory');
    expect(await memory(STANDBY.id).innerText()).to.equal('1.5 GB');
    // The real agent reads its own tree (the test process and its Chromium): hundreds of MB or a few GB.
    expect(api.agent!.status().rssBytes).to.be.a('number');
    expect(await memory(api.agent!.status().id).innerText()).to.match(/^(\d{2,3} MB|\d+\.\d GB)$/);
  });

  it('drains and undrains a node from its row', async () => {
    await rowOf(nodes(), STANDBY.id).waitFor();
    await page.getByRole('button', { name: `Drain ${STANDBY.id}`, exact: true }).click();
    await page.getByRole('button', { name: `Undrain ${STANDBY.id}`, exact: true }).waitFor();
    expect(await rowOf(nodes(), STANDBY.id).innerText()).to.include('draining');
    expect((await listed(STANDBY.id))?.draining).to.equal(true);
    await page.getByRole('button', { name: `Undrain ${STANDBY.id}`, exact: true }).click();
    await page.getByRole('button', { name: `Drain ${STANDBY.id}`, exact: true }).waitFor();
    expect(await rowOf(nodes(), STANDBY.id).innerText()).to.include('accepting');
    expect((await listed(STANDBY.id))?.draining).to.equal(false);
  });

  it('drains the real agent: it stops taking jobs and says so on the page', async () => {
    const agentId = api.agent!.status().id;
    await page.getByRole('button', { name: `Drain ${agentId}`, exact: true }).click();
    // The agent saw the request at its next heartbeat and finished its (no) jobs in flight; its owner
    // (`shotfarm serve` or `agent`) would now stop it, which is the CLI's part (node-drain.test.ts).
    await api.agent!.drained;
    expect(api.agent!.status().draining).to.equal(true);
    await until('the page to show the agent draining', async () => (await rowOf(nodes(), agentId).innerText()).includes('draining'), 20_000);
    await page.getByRole('button', { name: `Undrain ${agentId}`, exact: true }).waitFor();
    expect(consoleErrors).to.deep.equal([]);
  });
});
