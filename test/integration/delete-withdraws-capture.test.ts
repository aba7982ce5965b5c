import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import knexFactory, { type Knex } from 'knex';
import { CliProcesses, distributedFarmEnv, startedAgentUrl, startedApiUrl } from '../support/cli-processes.js';
import { createThrowawayPostgres } from '../support/databases.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { startS3rver, type RunningS3rver } from '../support/s3rver.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { until } from '../support/wait-until.js';

/**
 * A page that never finishes loading: /slow/NAME sends the start of its document and then nothing, so a
 * browser loading it keeps the connection open until its page is closed. The site notes when each request
 * arrived and when its connection closed; /done/NAME is a plain page.
 */
class SlowSite {
  readonly arrived = new Map<string, number>();
  readonly closed = new Map<string, number>();
  readonly hits = new Map<string, number>();
  private constructor(
    readonly origin: string,
    readonly stop: () => Promise<void>,
  ) {}

  static async start(): Promise<SlowSite> {
    const notes = { arrived: new Map<string, number>(), closed: new Map<string, number>(), hits: new Map<string, number>() };
    const server = http.createServer((req, res) => {
      const [, kind, name = ''] = (req.url ?? '').split('/');
      notes.hits.set(`${kind}/${name}`, (notes.hits.get(`${kind}/${name}`) ?? 0) + 1);
      res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-store' });
      if (kind !== 'slow') {
        res.end('<!doctype html><title>done</title><p>done</p>');
        return;
      }
      notes.arrived.set(name, Date.now());
      res.on('close', () => notes.closed.set(name, Date.now()));
      res.write(`<!doctype html><title>slow</title><p>${'still loading '.repeat(200)}`);
    });
    const { origin, stop } = await listenOnLoopback(server);
    return Object.assign(new SlowSite(origin, stop), notes);
  }

  url(p: string): string {
    return `${this.origin}${p}`;
  }
}

/**
 * A screenshot deleted while its page is still loading (issue 25 §6): the agent is told at once and closes
 * the page. Seen from outside, at the page's server: the browser's connection closes within seconds of the
 * delete, where without the withdrawal the page would stay open until its 60 s deadline. No result is
 * recorded (the agent counts no capture, the account no debit), and the slot takes the next capture.
 */
const CLOSE_BOUND_MS = 5_000;
const MAX_WAIT_S = 60;

interface Farm {
  api: string;
  key: string;
  db: Knex;
  /** the one agent's counters, as the registry lists them */
  node(): Promise<{ jobsDone: number; failures: number; inFlight: number }>;
}

async function deletedMidCapture(farm: Farm, site: SlowSite): Promise<void> {
  const name = randomBytes(6).toString('hex');
  const before = await farm.node();
  const created = await call(farm.api, `/screenshot/create?url=${encodeURIComponent(site.url(`/slow/${name}`))}&max_wait=${MAX_WAIT_S}&cache=0`, { key: farm.key });
  expect(created.status, JSON.stringify(created.body)).to.equal(200);
  const id = created.body.data[0].id as number;
  await until('the browser to load the slow page', async () => site.arrived.has(name), 90_000);
  expect(site.closed.has(name), 'the page is still loading').to.equal(false);

  const deleted = await call(farm.api, `/screenshot/delete?id=${id}&data=all`, { key: farm.key });
  expect(deleted.status, JSON.stringify(deleted.body)).to.equal(200);
  const deletedAt = Date.now();
  await until('the slow connection to close', async () => site.closed.has(name), MAX_WAIT_S * 1000);
  const closedAfter = (site.closed.get(name) as number) - deletedAt;
  expect(closedAfter, `the page closed ${closedAfter} ms after the delete`).to.be.below(CLOSE_BOUND_MS);

  // The slot is free: the next capture on it finishes.
  const next = await call(farm.api, `/screenshot/create?url=${encodeURIComponent(site.url(`/done/${name}`))}&cache=0`, { key: farm.key });
  const info = await call(farm.api, `/screenshot/info?id=${next.body.data[0].id}&wait=60`, { key: farm.key });
  expect(info.body.data.status, info.body.data.error).to.equal('finished');
  await until('the agent to report the next capture', async () => (await farm.node()).jobsDone === before.jobsDone + 1, 30_000);

  // Nothing of the deleted one: not loaded again, not counted as a capture nor a failure, not charged.
  expect(site.hits.get(`slow/${name}`), 'loaded once, never retried').to.equal(1);
  const after = await farm.node();
  expect(after.failures, 'the withdrawal is no failure of the node').to.equal(before.failures);
  expect(after.inFlight).to.equal(0);
  expect(await farm.db('credit_ledger').where({ screenshot_id: id })).to.have.length(0);
  expect(await farm.db('screenshots').where({ id })).to.have.length(0);
  expect((await call(farm.api, `/screenshot/info?id=${id}`, { key: farm.key })).status).to.equal(404);
}

describe('deleting a processing screenshot ends its capture: embedded (one process, in-process queue)', function () {
  this.timeout(240_000);
  let site: SlowSite;
  let api: TestApi;
  let acct: TestAccount;

  before(async () => {
    site = await SlowSite.start();
    api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_AGENT_SLOTS: '1' }, { agent: true });
    acct = await api.account(100);
  });
  after(async () => {
    await api?.stop();
    await site?.stop();
  });

  it(`the page closes within ${CLOSE_BOUND_MS / 1000} s of the delete, no result is recorded, and the slot takes the next capture`, async () => {
    const node = async (): Promise<{ jobsDone: number; failures: number; inFlight: number }> => api.agent!.status();
    await deletedMidCapture({ api: api.url, key: acct.key, db: api.database.db, node }, site);
  });
});

describe('deleting a processing screenshot ends its capture: distributed (shotfarm api + shotfarm agent over NATS)', function () {
  this.timeout(300_000);
  const prefix = `sftest_${randomBytes(4).toString('hex')}`;
  const key = `sf_${randomBytes(18).toString('base64url')}`;
  let site: SlowSite;
  let s3: RunningS3rver;
  let pg: { url: string; drop(): Promise<void> };
  let dataDir: string;
  let db: Knex;
  let api: string;
  const processes = new CliProcesses(() => distributedFarmEnv({ natsPrefix: prefix, s3, bucket: 'shotfarm-test', dataDir }));

  before(async () => {
    site = await SlowSite.start();
    s3 = await startS3rver();
    pg = await createThrowawayPostgres();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-withdraw-'));
    const apiProcess: ChildProcess = processes.start(['api'], { PORT: '0', DATABASE_URL: pg.url, SHOTFARM_BOOTSTRAP_KEY: key, SHOTFARM_BOOTSTRAP_CREDITS: '100' });
    api = `${await startedApiUrl(apiProcess)}/api/v1`;
    await startedAgentUrl(processes.start(['agent', '--browsers', 'chrome', '--slots', '1'], { PORT: '0', SHOTFARM_NODE_ID: 'withdraw-agent' }));
    db = knexFactory({ client: 'pg', connection: pg.url });
  });
  after(async () => {
    await processes.stopAll();
    await db?.destroy();
    await pg?.drop();
    await s3?.stop();
    await site?.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it(`the agent in its own process closes the page within ${CLOSE_BOUND_MS / 1000} s of the delete; no result is recorded; the slot takes the next capture`, async () => {
    const node = async (): Promise<{ jobsDone: number; failures: number; inFlight: number }> => {
      // Heartbeats every second (distributedFarmEnv): the registry's view lags by that much.
      const nodes = (await call(api, '/admin/nodes', { key })).body.data as { id: string; jobsDone: number; failures: number; inFlight: number }[];
      const agent = nodes.find((n) => n.id === 'withdraw-agent');
      if (!agent) throw new Error(`the agent is not listed: ${JSON.stringify(nodes)}`);
      return agent;
    };
    await deletedMidCapture({ api, key, db, node }, site);
  });
});
