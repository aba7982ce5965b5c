import http from 'node:http';
import { expect } from 'chai';
import sharp from 'sharp';
import type { DependencyContainer } from 'tsyringe';
import { startControlPlane, type ControlPlane } from '../../api/control-plane.js';
import { connectDatabase, type Db } from '../../api/db/connect.js';
import { TOKENS } from '../../core/di/tokens.js';
import { createLogger } from '../../core/logger.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { until } from '../support/wait-until.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
/** Yearly: a monitor that only runs when a test asks (POST /monitor/run). */
const NEVER_ON_ITS_OWN = '0 0 1 1 *';
/** Small shots keep captures quick; the page below fills the viewport with three blocks. */
const VIEWPORT = { screen_width: 640, screen_height: 600 };

/**
 * A page of three blocks whose colours and words the test sets: `main` (y 0-300), `ad` (y 300-450, a
 * monitor hides it by selector) and `banner` (y 450-600, a monitor ignores its box).
 */
class ChangingPage {
  main = { color: '#ffffff', text: 'Price: 10 EUR' };
  ad = { color: '#ffffff', text: 'ad one' };
  banner = { color: '#ffffff', text: 'banner one' };
  private server = http.createServer((_req, res) => {
    const block = (id: string, height: number, b: { color: string; text: string }): string =>
      `<div id="${id}" style="height:${height}px;background:${b.color}"><p style="margin:0">${b.text}</p></div>`;
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(`<!doctype html><html><body style="margin:0;font:20px sans-serif">${block('main', 300, this.main)}${block('ad', 150, this.ad)}${block('banner', 150, this.banner)}</body></html>`);
  });
  private stopper: (() => Promise<void>) | null = null;
  url = '';

  async start(): Promise<void> {
    const { origin, stop } = await listenOnLoopback(this.server);
    this.url = `${origin}/watched`;
    this.stopper = stop;
  }

  async stop(): Promise<void> {
    await this.stopper?.();
  }
}

const post = (api: TestApi, path: string, key: string, body: unknown) => call(api.url, path, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

async function createMonitor(api: TestApi, key: string, body: Record<string, unknown>): Promise<any> {
  const res = await post(api, '/monitor/create', key, body);
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.data;
}

/** One run now; resolves with the run once its screenshot ended and the comparison is done. */
async function runOnce(api: TestApi, key: string, monitorId: number): Promise<any> {
  const started = await post(api, '/monitor/run', key, { id: monitorId });
  expect(started.status, JSON.stringify(started.body)).to.equal(200);
  const runId = started.body.data.id;
  return until(
    `run ${runId} to be compared`,
    async () => {
      const runs = await call(api.url, `/monitor/runs?id=${monitorId}`, { key });
      const run = runs.body.data.find((r: any) => r.id === runId);
      return run && !['processing', 'comparing'].includes(run.status) ? run : null;
    },
    90_000,
  );
}

describe('page monitors (embedded agent, real Chromium, a local page that changes)', function () {
  this.timeout(240_000);
  let api: TestApi;
  let page: ChangingPage;
  let receiver: WebhookReceiver;
  let owner: TestAccount;

  before(async () => {
    page = new ChangingPage();
    await page.start();
    receiver = await WebhookReceiver.start(SECRET);
    api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_AGENT_SLOTS: '2' }, { agent: true });
    owner = await api.account(1000);
    const app = await post(api, '/app/create', owner.key, { app_id: 'changes', type: 'webhook', settings: { url: receiver.url, secret: SECRET, events: ['monitor.changed'] } });
    expect(app.status, JSON.stringify(app.body)).to.equal(200);
  });
  after(async () => {
    await api?.stop();
    await receiver?.close();
    await page?.stop();
  });

  it('a page that changes between runs fires exactly one monitor.changed, with a diff above the threshold and working links', async () => {
    const monitor = await createMonitor(api, owner.key, { url: page.url, cron: NEVER_ON_ITS_OWN, threshold: 5, apps: ['changes'], html: true, ...VIEWPORT });
    const first = await runOnce(api, owner.key, monitor.id);
    expect(first).to.include({ status: 'finished', change_ratio: null, changed: false, previous_screenshot_id: null });
    const same = await runOnce(api, owner.key, monitor.id);
    expect(same).to.include({ status: 'finished', changed: false, previous_screenshot_id: first.screenshot_id });
    expect(same.change_ratio, 'an unchanged page').to.be.at.most(0.001);

    page.main = { color: '#2a9d3a', text: 'Price: 12 EUR' };
    const changed = await runOnce(api, owner.key, monitor.id);
    expect(changed).to.include({ status: 'finished', changed: true, previous_screenshot_id: same.screenshot_id });
    // The main block is 300 of the page's 600 rows: about half of the pixels.
    expect(changed.change_ratio).to.be.within(0.4, 0.6);
    expect(changed.text_changes).to.deep.include({ added: ['Price: 12 EUR'], removed: ['Price: 10 EUR'] });

    const event = await until('monitor.changed', async () => receiver.ofType('monitor.changed')[0]);
    expect(event.verified, 'Standard Webhooks signature').to.equal(true);
    expect(event.data).to.include({ id: monitor.id, screenshot_id: changed.screenshot_id, previous_screenshot_id: same.screenshot_id, threshold: 5 });
    expect(event.data.change_ratio * 100).to.be.above(5);
    // Before, after and diff open without an API key, and the diff marks the changed half.
    for (const link of [event.data.before_url, event.data.after_url, event.data.diff_url]) {
      const res = await fetch(link);
      expect(res.status, link).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('image/png');
    }
    const diff = await sharp(Buffer.from(await (await fetch(event.data.diff_url)).arrayBuffer()))
      .raw()
      .toBuffer({ resolveWithObject: true });
    expect(diff.info.width).to.be.at.least(640);
    // The record carries the comparison too.
    const record = await call(api.url, `/screenshot/info?id=${changed.screenshot_id}`, { key: owner.key });
    expect(record.body.data).to.include({ monitor_id: monitor.id, change_ratio: changed.change_ratio });

    // Give a stray second delivery time to arrive: there is none.
    await new Promise((r) => setTimeout(r, 1500));
    expect(receiver.ofType('monitor.changed'), 'exactly one event').to.have.length(1);
    // Each run is a screenshot, charged like one.
    const ledger = await api.database.db('credit_ledger').whereIn('screenshot_id', [first.screenshot_id, same.screenshot_id, changed.screenshot_id]);
    expect(ledger).to.have.length(3);
  });

  it('a comparison claimed by a process that died before finishing it is taken over once its lease ran out, and done once', async () => {
    const monitor = await createMonitor(api, owner.key, { url: page.url, cron: NEVER_ON_ITS_OWN, threshold: 5, ...VIEWPORT });
    await runOnce(api, owner.key, monitor.id);
    const second = await runOnce(api, owner.key, monitor.id);
    const { db } = api.database;
    // As a replica that claimed the comparison and died leaves it: claimed, never done.
    const freshClaim = new Date(Date.now() - 60_000);
    await db('monitor_runs').where({ id: second.id }).update({ compared: true, compare_claimed_at: freshClaim, compared_at: null, previous_screenshot_id: null });
    const status = async (): Promise<string> => (await call(api.url, `/monitor/runs?id=${monitor.id}`, { key: owner.key })).body.data.find((r: any) => r.id === second.id).status;
    expect(await status()).to.equal('comparing');
    // A claim younger than the lease is left to its owner: a poll (every 5 s by default) and more pass.
    await new Promise((r) => setTimeout(r, 6_000));
    expect(await status(), 'a live claim is not taken over').to.equal('comparing');
    // Once the lease ran out, the next sweep compares it.
    await db('monitor_runs')
      .where({ id: second.id })
      .update({ compare_claimed_at: new Date(Date.now() - 6 * 60_000) });
    await until('the stale comparison to be taken over', async () => (await status()) === 'finished', 30_000);
    const row = await db('monitor_runs').where({ id: second.id }).first('previous_screenshot_id', 'compare_claimed_at', 'compared_at');
    expect(Number(row.previous_screenshot_id), 'compared with the run before it').to.be.above(0);
    expect(new Date(row.compare_claimed_at).getTime()).to.be.above(Date.now() - 60_000);
  });

  it('a page that changes only inside ignored regions (a selector, a box) fires nothing; without them the same change would', async () => {
    page.main = { color: '#ffffff', text: 'steady' };
    page.ad = { color: '#ffffff', text: 'ad one' };
    page.banner = { color: '#ffffff', text: 'banner one' };
    const masked = await createMonitor(api, owner.key, {
      url: page.url,
      cron: NEVER_ON_ITS_OWN,
      threshold: 1,
      apps: ['changes'],
      ignore: ['#ad', { x: 0, y: 450, width: 640, height: 150 }],
      ...VIEWPORT,
    });
    const control = await createMonitor(api, owner.key, { url: page.url, cron: NEVER_ON_ITS_OWN, threshold: 1, apps: ['changes'], ...VIEWPORT });
    await runOnce(api, owner.key, masked.id);
    await runOnce(api, owner.key, control.id);
    const eventsBefore = receiver.ofType('monitor.changed').length;

    page.ad = { color: '#d62828', text: 'ad two, much louder' };
    page.banner = { color: '#1d3557', text: 'banner two' };
    const maskedRun = await runOnce(api, owner.key, masked.id);
    expect(maskedRun).to.include({ status: 'finished', changed: false });
    expect(maskedRun.change_ratio).to.be.at.most(0.01);
    const controlRun = await runOnce(api, owner.key, control.id);
    expect(controlRun).to.include({ status: 'finished', changed: true });
    expect(controlRun.change_ratio, 'the ad and the banner are half of the page').to.be.above(0.3);

    await until("the control monitor's event", async () => receiver.ofType('monitor.changed').find((e) => e.data.id === control.id));
    await new Promise((r) => setTimeout(r, 1500));
    expect(
      receiver.ofType('monitor.changed').filter((e) => e.data.id === masked.id),
      'no event for the masked monitor',
    ).to.have.length(0);
    expect(receiver.ofType('monitor.changed')).to.have.length(eventsBefore + 1);
  });
});

for (const kind of DATABASE_KINDS)
  describe(`monitor API on ${kind}`, function () {
    this.timeout(60_000);
    let api: TestApi;
    let owner: TestAccount;

    before(async () => {
      api = await startTestApi(kind);
      owner = await api.account(100);
    });
    after(async () => api?.stop());

    it("creates, lists, updates, pauses, resumes and deletes a monitor in the spec's envelopes", async () => {
      const created = await createMonitor(api, owner.key, {
        url: 'https://example.test/page',
        interval: 600,
        threshold: 2.5,
        ignore: ['.clock', { x: 0, y: 0, width: 100, height: 50 }],
        screen_width: 800,
        dark: true,
      });
      expect(created).to.include({ url: 'https://example.test/page', interval: 600, cron: '', threshold: 2.5, status: 'active' });
      expect(created.ignore).to.deep.equal(['.clock', { x: 0, y: 0, width: 100, height: 50 }]);
      expect(created.options).to.deep.equal({ screen_width: ['800'], dark: ['true'] });
      const list = await call(api.url, '/monitor/list', { key: owner.key });
      expect(list.body).to.include({ success: true });
      expect(list.body.data.map((m: any) => m.id)).to.include(created.id);

      const updated = await post(api, '/monitor/update', owner.key, { id: created.id, cron: '*/10 * * * *', screen_width: 1024 });
      expect(updated.status, JSON.stringify(updated.body)).to.equal(200);
      expect(updated.body.data).to.include({ cron: '*/10 * * * *', threshold: 2.5 });
      expect(updated.body.data.options).to.deep.equal({ screen_width: ['1024'], dark: ['true'] });
      expect(new Date(updated.body.data.next_run_at).getUTCMinutes() % 10).to.equal(0);

      // A bad change is a 400 naming it, and changes nothing.
      const refused = await post(api, '/monitor/update', owner.key, { id: created.id, interval: 10, threshold: 50 });
      expect(refused.status).to.equal(400);
      expect(refused.body.fields).to.have.property('interval');
      expect((await call(api.url, `/monitor/info?id=${created.id}`, { key: owner.key })).body.data).to.deep.equal(updated.body.data);

      const paused = await post(api, '/monitor/pause', owner.key, { id: created.id });
      expect(paused.body.data).to.include({ status: 'paused', next_run_at: '' });
      const resumed = await post(api, '/monitor/resume', owner.key, { id: created.id });
      expect(resumed.body.data.status).to.equal('active');
      const deleted = await post(api, '/monitor/delete', owner.key, { id: created.id });
      expect(deleted.body).to.deep.equal({ success: true, data: null });
      const gone = await call(api.url, `/monitor/info?id=${created.id}`, { key: owner.key });
      expect(gone.status).to.equal(404);
      expect(gone.body).to.include({ success: false, code: 'NOT_FOUND' });
    });

    it('refuses bad input with 400 and fields, creating nothing: an interval under 5 minutes, a bad cron, threshold, ignore region or option', async () => {
      const cases: [Record<string, unknown>, string][] = [
        [{ url: 'https://example.test/', interval: 60 }, 'interval'],
        [{ url: 'https://example.test/' }, 'interval'],
        [{ url: 'https://example.test/', cron: '* * * * *' }, 'cron'],
        [{ url: 'https://example.test/', cron: 'every day' }, 'cron'],
        [{ url: 'https://example.test/', interval: 300, threshold: 101 }, 'threshold'],
        [{ url: 'https://example.test/', interval: 300, ignore: [{ x: 0, y: 0 }] }, 'ignore'],
        [{ url: 'https://example.test/', interval: 300, ignore: ['a{color:red}'] }, 'ignore'],
        [{ url: 'https://example.test/', interval: 300, delay: 99 }, 'delay'],
        [{ url: 'https://example.test/', interval: 300, country: 'us,fr' }, 'country'],
        [{ url: 'https://example.test/', interval: 300, apps: ['no-such-app'] }, 'apps'],
        [{ url: 'not a url', interval: 300 }, 'url'],
      ];
      for (const [body, field] of cases) {
        const res = await post(api, '/monitor/create', owner.key, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body, JSON.stringify(body)).to.include({ success: false, code: 'VALIDATION_ERROR' });
        expect(res.body.fields, JSON.stringify(res.body)).to.have.property(field);
      }
      expect(await api.database.db('monitors').where({ company_id: owner.companyId }).whereRaw('url = ?', ['https://example.test/'])).to.have.length(0);
    });

    it('answers odd bodies and ids of every monitor route with a 4xx in the envelope, never a 500', async () => {
      const bodies: unknown[] = [
        [1, 2],
        'text',
        { id: 'abc' },
        { id: 2 ** 60 },
        { id: -1 },
        { id: [1, 2] },
        { id: { nested: true } },
        { url: ['https://a.test/', 'https://b.test/'], interval: 300 },
        { url: 'https://a.test/', interval: '5e2' },
        { url: 'https://a.test/', cron: 'x'.repeat(300) },
        { url: 'https://a.test/', interval: 300, ignore: { deep: [[[[{}]]]] } },
        { url: 'https://a.test/', interval: 300, ignore: '[' },
        { url: 'https://a.test/', interval: 300, steps: 'not json' },
      ];
      for (const path of ['/monitor/create', '/monitor/update', '/monitor/pause', '/monitor/resume', '/monitor/delete', '/monitor/run']) {
        for (const body of bodies) {
          const res = await call(api.url, path, { method: 'POST', key: owner.key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
          const show = `${path} ${JSON.stringify(body).slice(0, 80)} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
          expect(res.status, show).to.be.within(400, 499);
          expect(res.body, show).to.include({ success: false });
        }
      }
      for (const query of ['', '?id=abc', '?id=0', '?id=99999999', '?id=1&id=2', '?id=1&limit=0', '?id=1&offset=-1']) {
        for (const path of ['/monitor/info', '/monitor/runs', '/monitor/diff']) {
          const res = await call(api.url, `${path}${query}`, { key: owner.key });
          expect(res.status, `${path}${query} → ${res.status}`).to.be.within(400, 499);
        }
      }
      // A signed diff link with a forged token opens nothing.
      expect((await fetch(`${api.url}/monitor/diff?id=1&token=forged`)).status).to.equal(404);
    });
  });

describe('the monitor schedule on Postgres: two API replicas, and a restart', function () {
  this.timeout(120_000);
  let api: TestApi;
  let second: ControlPlane | null = null;
  let secondDb: Db | null = null;
  let owner: TestAccount;
  // A 2-second period asks for 1,800 runs an hour: above the default budget of an account (SHOTFARM_MONITOR_RUNS_PER_HOUR).
  const replicaEnv = { SHOTFARM_TEST_MONITOR_MIN_INTERVAL_SECONDS: '1', SHOTFARM_MONITOR_POLL_MS: '100', SHOTFARM_MONITOR_RUNS_PER_HOUR: '100000' };

  /** Another replica's container: its own database pool, the suite's queue, registry and object store. */
  const replica = (db: Db): DependencyContainer => {
    const child = api.container.createChildContainer();
    child.register(TOKENS.Db, { useValue: db });
    return child;
  };

  before(async () => {
    // No agent: runs stay `processing`; the schedule, not the capture, is under test.
    api = await startTestApi('postgres', replicaEnv);
    owner = await api.account(10_000);
  });
  after(async () => {
    await second?.stop();
    await secondDb?.destroy();
    await api?.stop();
  });

  it('with two control planes on one Postgres, each period runs once', async () => {
    secondDb = await connectDatabase({ databaseUrl: api.database.url });
    second = await startControlPlane(api.config, { generateBootstrapKey: false, container: replica(secondDb), logger: createLogger('silent') });
    const periodSeconds = 2;
    const monitor = await createMonitor(api, owner.key, { url: 'https://example.test/watched', interval: periodSeconds });
    await new Promise((r) => setTimeout(r, 9_000));
    await post(api, '/monitor/pause', owner.key, { id: monitor.id });
    const db = api.database.db;
    const runs: { scheduled_for: Date; screenshot_id: number | null }[] = await db('monitor_runs').where({ monitor_id: monitor.id }).orderBy('scheduled_for').select('scheduled_for', 'screenshot_id');
    const shots = await db('screenshots').where({ monitor_id: monitor.id }).count<{ count: string }[]>('id as count');
    // 9 s of a 2 s period: the period at 0 s, then 2, 4, 6 and 8 s.
    expect(runs.length).to.be.within(4, 5);
    expect(Number(shots[0]?.count), 'one screenshot per period').to.equal(runs.length);
    for (let i = 1; i < runs.length; i++) {
      const gap = new Date(runs[i]!.scheduled_for).getTime() - new Date(runs[i - 1]!.scheduled_for).getTime();
      expect(gap, 'consecutive periods, none twice and none skipped').to.equal(periodSeconds * 1000);
    }
    await second.stop();
    second = null;
  });

  it('after a restart, the periods missed while it was down are caught up by one run', async () => {
    const monitor = await createMonitor(api, owner.key, { url: 'https://example.test/restart', interval: 300 });
    const db = api.database.db;
    await until('the first run', async () => (await db('monitor_runs').where({ monitor_id: monitor.id })).length === 1);
    const anchor = new Date((await db('monitors').where({ id: monitor.id }).first('next_run_at')).next_run_at as Date);

    // Everything goes down; an hour passes (twelve periods of five minutes): moved back in the database.
    await api.plane.stop();
    const hour = 3600_000;
    const missedFrom = new Date(anchor.getTime() - hour);
    await db('monitors').where({ id: monitor.id }).update({ next_run_at: missedFrom });
    secondDb = await connectDatabase({ databaseUrl: api.database.url });
    second = await startControlPlane(api.config, { generateBootstrapKey: false, container: replica(secondDb), logger: createLogger('silent') });

    await until('the caught-up run', async () => (await db('monitor_runs').where({ monitor_id: monitor.id })).length >= 2);
    await new Promise((r) => setTimeout(r, 1500));
    const runs = await db('monitor_runs').where({ monitor_id: monitor.id }).orderBy('id');
    expect(runs, 'one run for all the missed periods').to.have.length(2);
    expect(new Date(runs[1].scheduled_for).getTime()).to.equal(missedFrom.getTime());
    const next = new Date((await db('monitors').where({ id: monitor.id }).first('next_run_at')).next_run_at as Date);
    expect(next.getTime(), 'the next period is in the future').to.be.above(Date.now());
    expect((next.getTime() - missedFrom.getTime()) % 300_000, "and keeps the schedule's phase").to.equal(0);
  });
});
