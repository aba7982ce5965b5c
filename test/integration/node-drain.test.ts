import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import knexFactory from 'knex';
import { createThrowawayPostgres } from '../support/databases.js';
import { CliProcesses, distributedFarmEnv, startedAgentUrl, startedApiUrl } from '../support/cli-processes.js';
import { runCli } from '../support/run-cli.js';
import { startS3rver, type RunningS3rver } from '../support/s3rver.js';
import { call } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';
import { until } from '../support/wait-until.js';

const JOBS = 16;
const SLOTS = 2;

describe('an agent without object storage', () => {
  it('refuses to start with NATS_URL but no S3_* settings, naming them (its files would be unreachable)', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-nos3-'));
    try {
      const run = await runCli(['agent', '--browsers', 'chrome'], { NATS_URL: 'nats://127.0.0.1:4222', SHOTFARM_DATA_DIR: dataDir, PORT: '0', LOG_LEVEL: 'silent' }, 30_000);
      expect(run.code, run.stderr).to.equal(2);
      expect(run.stderr).to.match(/^shotfarm: an agent stores its captures where the control plane reads them: set S3_ENDPOINT, S3_ACCESS_KEY and S3_SECRET_KEY/);
      expect(run.stdout).to.equal('');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('draining a node (shotfarm api + two shotfarm agent processes over NATS, Postgres and S3)', function () {
  this.timeout(300_000);
  const prefix = `sftest_${randomBytes(4).toString('hex')}`;
  const key = `sf_${randomBytes(18).toString('base64url')}`;
  const agents = new Map<string, { child: ChildProcess; url: string; exit: Promise<number | null> }>();
  let site: TestSite;
  let s3: RunningS3rver;
  let pg: { url: string; drop(): Promise<void> };
  let dataDir: string;
  let base: string;
  let db: knexFactory.Knex;

  const env = (): Record<string, string> => distributedFarmEnv({ natsPrefix: prefix, s3, bucket: 'shotfarm-drain-test', dataDir });
  const processes = new CliProcesses(env);
  const start = (args: string[], extra: Record<string, string>): ChildProcess => processes.start(args, extra);
  const admin = (p: string, init: RequestInit = {}): ReturnType<typeof call> => call(`${base}/api/v1`, p, { ...init, key });
  const post = (p: string, body: unknown): ReturnType<typeof call> => admin(p, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  const health = async (id: string): Promise<{ status: string; node: { inFlight: number; jobsDone: number; failures: number; draining: boolean } }> =>
    (await fetch(`${agents.get(id)?.url}/healthz`)).json() as never;
  /** `query`: what the capture is asked for besides its URL; `held`: the page answers once site.release(held) is called. */
  const create = async (n: number, query: string, held?: string): Promise<{ id: number; cost: number }[]> => {
    const out: { id: number; cost: number }[] = [];
    for (let i = 0; i < n; i++) {
      const page = `${held ? `/held/${held}` : ''}/echo?drain=${randomBytes(4).toString('hex')}`;
      const res = await admin(`/screenshot/create?url=${encodeURIComponent(site.url(page))}&${query}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      out.push({ id: res.body.data[0].id, cost: res.body.data[0].cost });
    }
    return out;
  };
  const ended = async (ids: number[], node?: string): Promise<number> => {
    const q = db('screenshots').whereIn('id', ids).whereNot({ status: 'processing' });
    return Number((await (node ? q.where({ node_id: node }) : q).count('* as n'))[0]?.n);
  };

  before(async () => {
    site = await TestSite.start();
    s3 = await startS3rver();
    pg = await createThrowawayPostgres();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-drain-'));
    const api = start(['api'], { PORT: '0', DATABASE_URL: pg.url, SHOTFARM_BOOTSTRAP_KEY: key, SHOTFARM_BOOTSTRAP_CREDITS: '1000' });
    base = await startedApiUrl(api);
    await Promise.all(
      ['drain-a', 'drain-b'].map(async (id) => {
        const child = start(['agent', '--browsers', 'chrome', '--slots', String(SLOTS)], { PORT: '0', SHOTFARM_NODE_ID: id });
        const exit = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
        const url = await startedAgentUrl(child);
        agents.set(id, { child, url, exit });
      }),
    );
    db = knexFactory({ client: 'pg', connection: pg.url });
  });

  after(async () => {
    await processes.stopAll();
    await db?.destroy();
    await pg?.drop();
    await s3?.stop();
    await site?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('drain and undrain are admin-only and answer a missing or unknown node with 400 and 404', async () => {
    const user = await call(`${base}/api/v1`, '/admin/nodes/drain?id=drain-a', { method: 'POST' });
    expect(user.status).to.equal(401);
    expect((await post('/admin/nodes/drain', {})).body).to.deep.include({ success: false, code: 'VALIDATION_ERROR' });
    const unknown = await post('/admin/nodes/drain', { id: 'no-such-node' });
    expect(unknown.status).to.equal(404);
    expect((await admin('/admin/nodes')).body.data.map((n: { draining: boolean }) => n.draining)).to.deep.equal([false, false]);
  });

  it('undrain before the jobs in flight have finished cancels the drain: the node stays and takes jobs again', async () => {
    // The pages answer only once the drain is undone (below): the jobs stay in flight through two CLI runs
    // however long those take on a busy machine (a fixed 25 s delay before: ~30 s a run), within a max_wait they never reach.
    const jobs = await create(2 * SLOTS, 'max_wait=120', 'undrain');
    await until('drain-b busy', async () => (await health('drain-b')).node.inFlight > 0, 60_000);
    const drained = await runCli(['nodes', 'drain', 'drain-b'], env(), 30_000);
    expect(drained.code, drained.stderr).to.equal(0);
    expect(drained.stdout).to.equal('drain-b: draining; it leaves once its jobs in flight have finished\n');
    // `shotfarm nodes` shows it draining; the other node is not.
    const listed = await runCli(['nodes'], env(), 30_000);
    expect(listed.code, listed.stderr).to.equal(0);
    expect(listed.stdout.split('\n').find((l) => l.startsWith('drain-b\t'))).to.match(/\tdraining$/);
    expect(listed.stdout.split('\n').find((l) => l.startsWith('drain-a\t'))).to.not.match(/draining/);
    // The agent read the request on a heartbeat: it says so itself, with jobs still in flight.
    await until('drain-b draining', async () => (await health('drain-b')).status === 'draining', 10_000);
    expect((await health('drain-b')).node.inFlight, 'still finishing its jobs').to.be.above(0);
    const undrained = await post('/admin/nodes/undrain', { id: 'drain-b' });
    expect(undrained.status).to.equal(200);
    // Undrained with its jobs still in flight; they end now, and the agent reads the withdrawn request once they have.
    site.release('undrain');
    await until('drain-b accepting again', async () => (await health('drain-b')).status === 'ok', 60_000);
    await until('the slow jobs ended', async () => (await ended(jobs.map((j) => j.id))) === jobs.length, 60_000);
    // Two more heartbeats: a drain carried out would have stopped the process by now.
    await new Promise((r) => setTimeout(r, 2_500));
    expect(agents.get('drain-b')?.child.exitCode).to.equal(null);
    expect((await admin('/admin/nodes')).body.data.map((n: { id: string; draining: boolean }) => [n.id, n.draining])).to.deep.equal([
      ['drain-a', false],
      ['drain-b', false],
    ]);
    const unknown = await runCli(['nodes', 'drain', 'no-such-node'], env(), 30_000);
    expect(unknown).to.deep.include({ code: 1, stdout: '' });
    expect(unknown.stderr).to.equal('shotfarm: no live node "no-such-node" (see shotfarm nodes)\n');
  });

  it(`${JOBS} jobs each finish once and are charged once though one agent is drained mid-run; it takes no new job, leaves the registry and exits 0`, async () => {
    const balance = async (): Promise<number> => (await admin('/account/info')).body.data.balance;
    const before = await balance();
    const jobs = await create(JOBS, 'delay=1');
    const ids = jobs.map((j) => j.id);
    await until('drain-a has ended a job and holds one', async () => (await ended(ids, 'drain-a')) >= 1 && (await health('drain-a')).node.inFlight > 0, 120_000);
    const res = await post('/admin/nodes/drain', { id: 'drain-a' });
    expect(res.status).to.equal(200);
    // Shown draining at once: the request, before the agent's next heartbeat.
    expect(res.body.data).to.include({ id: 'drain-a', draining: true });
    // What the agent had taken when it read the request (one snapshot of its own counts).
    const atDrain = await until(
      'drain-a read the request',
      async () => {
        const h = await health('drain-a');
        return h.status === 'draining' ? h.node : null;
      },
      10_000,
    );
    const earlierByA = Number((await db('screenshots').whereNotIn('id', ids).where({ node_id: 'drain-a' }).count('* as n'))[0]?.n);
    const takenAtDrain = atDrain.jobsDone + atDrain.failures + atDrain.inFlight - earlierByA;

    expect(await agents.get('drain-a')?.exit, 'the drained agent exits 0').to.equal(0);
    expect(
      (await admin('/admin/nodes')).body.data.map((n: { id: string }) => n.id),
      'it left the registry',
    ).to.deep.equal(['drain-b']);

    await until('every job ended', async () => (await ended(ids)) === JOBS, 180_000);
    const rows = await db('screenshots').whereIn('id', ids).select('status', 'error', 'node_id');
    expect(
      rows.filter((r) => r.status !== 'finished'),
      'every job finished',
    ).to.deep.equal([]);
    // No job taken after it read the request, but for the one pull already under way then, which can
    // bring at most its free slots (without the drain it would have taken about half of the 16).
    const byA = rows.filter((r) => r.node_id === 'drain-a').length;
    expect(byA).to.be.at.least(takenAtDrain);
    expect(byA).to.be.at.most(takenAtDrain + SLOTS - atDrain.inFlight);
    expect(rows.filter((r) => r.node_id === 'drain-b').length).to.equal(JOBS - byA);
    const debits = await db('credit_ledger').whereIn('screenshot_id', ids).select('screenshot_id');
    expect(debits.length, 'one debit per screenshot').to.equal(JOBS);
    expect(new Set(debits.map((d) => Number(d.screenshot_id))).size).to.equal(JOBS);
    expect(before - (await balance())).to.equal(jobs.reduce((sum, j) => sum + j.cost, 0));
    const files = await db('screenshot_files').whereIn('screenshot_id', ids).where({ kind: 'image' }).count('* as n');
    expect(Number(files[0]?.n), 'one image each').to.equal(JOBS);
  });
});
