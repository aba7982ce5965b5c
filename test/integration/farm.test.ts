import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import knexFactory from 'knex';
import sharp, { type Metadata } from 'sharp';
import { createThrowawayPostgres } from '../support/databases.js';
import { CliProcesses, distributedFarmEnv, startedAgentUrl, startedApiUrl } from '../support/cli-processes.js';
import { startS3rver, type RunningS3rver } from '../support/s3rver.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';

const JOBS = 40;
const BROWSERS = ['chrome', 'firefox'] as const;

interface Farm {
  url: string;
  key: string;
  db: knexFactory.Knex;
}

/** Creates JOBS screenshots across two browsers on the local test site; returns their ids and costs. */
async function createJobs(farm: Farm, site: TestSite): Promise<{ id: number; cost: number }[]> {
  const created: { id: number; cost: number }[] = [];
  for (let i = 0; i < JOBS; i++) {
    const browser = BROWSERS[i % 2];
    // Every few jobs asks for a full page (cost 2) so the sum of costs is not just the job count.
    const res = await call(farm.url, `/screenshot/create?url=${encodeURIComponent(site.url(`/echo?job=${i}`))}&browser=${browser}${i % 5 === 0 ? '&size=page' : ''}`, { key: farm.key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    created.push({ id: res.body.data[0].id, cost: res.body.data[0].cost });
  }
  return created;
}

async function balanceOf(farm: Farm): Promise<number> {
  return (await call(farm.url, '/account/info', { key: farm.key })).body.data.balance;
}

/** Waits until no record of these ids is processing; returns the records. */
async function waitForAll(farm: Farm, ids: number[], timeoutMs: number): Promise<{ id: number; status: string; cost: number; error: string }[]> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const rows = await farm.db('screenshots').whereIn('id', ids).select('id', 'status', 'cost', 'error');
    if (rows.every((r) => r.status !== 'processing') || Date.now() > deadline) return rows.map((r) => ({ ...r, id: Number(r.id) }));
    await new Promise((r) => setTimeout(r, 500));
  }
}

/** Every job ended exactly once, and every finished one was charged exactly once. */
async function expectExactlyOnce(farm: Farm, jobs: { id: number; cost: number }[], balanceBefore: number): Promise<void> {
  const ids = jobs.map((j) => j.id);
  const rows = await waitForAll(farm, ids, 240_000);
  const stuck = rows.filter((r) => r.status === 'processing');
  expect(stuck, 'jobs still processing').to.deep.equal([]);
  const finished = rows.filter((r) => r.status === 'finished');
  expect(finished.length, JSON.stringify(rows.filter((r) => r.status === 'error'))).to.equal(JOBS);
  const debits = await farm.db('credit_ledger').whereIn('screenshot_id', ids).select('screenshot_id', 'delta');
  expect(debits.length, 'one debit per finished screenshot').to.equal(finished.length);
  expect(new Set(debits.map((d) => Number(d.screenshot_id))).size).to.equal(finished.length);
  const charged = jobs.reduce((sum, j) => sum + j.cost, 0);
  expect(balanceBefore - (await balanceOf(farm))).to.equal(charged);
  // One image per screenshot: a duplicated result would have added rows or failed on the unique key.
  const files = await farm.db('screenshot_files').whereIn('screenshot_id', ids).where({ kind: 'image' }).count('* as n');
  expect(Number(files[0]?.n)).to.equal(JOBS);
}

/** Fetches a finished screenshot's thumbnail and decodes it. */
async function thumbnail(farm: Farm, query: string): Promise<{ status: number; type: string | null; meta: Metadata | null; headers: Headers }> {
  const res = await fetch(`${farm.url}/screenshot/thumbnail?${query}`, { headers: { 'X-API-KEY': farm.key } });
  const body = Buffer.from(await res.arrayBuffer());
  return { status: res.status, type: res.headers.get('content-type'), meta: res.status === 200 ? await sharp(body).metadata() : null, headers: res.headers };
}

describe('the farm in embedded mode (one process: API, in-process queue, one agent)', function () {
  this.timeout(300_000);
  let api: TestApi;
  let site: TestSite;
  let farm: Farm;
  before(async () => {
    site = await TestSite.start();
    api = await startTestApi('pglite', {}, { agent: true });
    const acct = await api.account(1000);
    farm = { url: api.url, key: acct.key, db: api.database.db };
  });
  after(async () => {
    await api?.stop();
    await site?.close();
  });

  it(`${JOBS} jobs across chrome and firefox each finish once and are charged once`, async () => {
    const before = await balanceOf(farm);
    const jobs = await createJobs(farm, site);
    await expectExactlyOnce(farm, jobs, before);
  });

  it('thumbnails decode to the asked size, format and crop; the original is the stored PNG', async () => {
    const [first] = await farm.db('screenshots').where({ status: 'finished' }).whereRaw("capture_spec->>'size' = 'screen'").orderBy('id').limit(1).select('id');
    const id = Number(first.id);
    const original = await thumbnail(farm, `id=${id}`);
    expect(original).to.deep.include({ status: 200, type: 'image/png' });
    expect(original.meta).to.include({ format: 'png', width: 1280, height: 800 });
    expect(original.headers.get('etag')).to.match(/^".+"$/);
    expect(original.headers.get('cache-control')).to.include('max-age');
    const fit = await thumbnail(farm, `id=${id}&width=320&format=webmp&quality=60`);
    expect(fit.type).to.equal('image/webp');
    expect(fit.meta).to.include({ format: 'webp', width: 320, height: 200 });
    const fill = await thumbnail(farm, `id=${id}&width=200&height=200&ratio=fill&format=jpeg`);
    expect(fill.meta).to.include({ format: 'jpeg', width: 200, height: 200 });
    const cropped = await thumbnail(farm, `id=${id}&left=100&right=180&top=50&bottom=150`);
    expect(cropped.meta).to.include({ width: 1000, height: 600 });
    const zoomed = await thumbnail(farm, `id=${id}&left=280&zoom=50&scale=0.5`);
    expect(zoomed.meta).to.include({ width: 250, height: 200 });
    const named = await thumbnail(farm, `id=${id}&filename=${encodeURIComponent('shot "1".png')}`);
    expect(named.status).to.equal(400);
    const attached = await thumbnail(farm, `id=${id}&filename=my%20shot.png`);
    expect(attached.headers.get('content-disposition')).to.equal(`attachment; filename="my shot.png"; filename*=UTF-8''my%20shot.png`);
    const notModified = await fetch(`${farm.url}/screenshot/thumbnail?id=${id}`, { headers: { 'X-API-KEY': farm.key, 'If-None-Match': original.headers.get('etag') as string } });
    expect(notModified.status).to.equal(304);
    expect((await thumbnail(farm, `id=${id}&left=700&right=600`)).status).to.equal(400);
    expect((await thumbnail(farm, `id=${id}&shot=2`)).status).to.equal(404);
  });

  it('cache reuses a finished capture at cost 0 without browser work; cache=0 captures again', async () => {
    const url = encodeURIComponent(site.url('/echo?cache-test=1'));
    const firstRes = await call(farm.url, `/screenshot/create?url=${url}`, { key: farm.key });
    const first = firstRes.body.data[0].id;
    await call(farm.url, `/screenshot/info?id=${first}&wait=60`, { key: farm.key });
    const hits = site.hits('/echo?cache-test=1');
    const cached = (await call(farm.url, `/screenshot/create?url=${url}&cache=600`, { key: farm.key })).body.data[0];
    expect(cached).to.include({ status: 'finished', cost: 0, routing: `cache:${first}` });
    expect((await thumbnail(farm, `id=${cached.id}`)).meta).to.include({ width: 1280 });
    expect(site.hits('/echo?cache-test=1')).to.equal(hits);
    const fresh = (await call(farm.url, `/screenshot/create?url=${url}&cache=0`, { key: farm.key })).body.data[0];
    expect(fresh.status).to.equal('processing');
    // Deleting the original keeps the files the cached copy shares.
    await call(farm.url, `/screenshot/delete?id=${first}`, { key: farm.key });
    expect((await thumbnail(farm, `id=${cached.id}`)).status).to.equal(200);
  });

  it('info?wait holds the answer until the record leaves processing', async () => {
    const id = (await call(farm.url, `/screenshot/create?url=${encodeURIComponent(site.url('/echo?wait=1'))}&html=1`, { key: farm.key })).body.data[0].id;
    const started = Date.now();
    const info = await call(farm.url, `/screenshot/info?id=${id}&wait=60`, { key: farm.key });
    expect(info.body.data.status).to.equal('finished');
    expect(info.body.data.has_html).to.equal(true);
    expect(Date.now() - started).to.be.below(60_000);
    const html = await fetch(`${farm.url}/screenshot/html?id=${id}`, { headers: { 'X-API-KEY': farm.key } });
    expect(html.headers.get('content-type')).to.include('text/html');
    expect(await html.text()).to.include('<pre');
    expect((await call(farm.url, `/screenshot/pdf?id=${id}`, { key: farm.key })).status).to.equal(404);
  });
});

describe('the farm in distributed mode (shotfarm api + two shotfarm agent processes over NATS, Postgres and S3)', function () {
  this.timeout(420_000);
  const prefix = `sftest_${randomBytes(4).toString('hex')}`;
  const key = `sf_${randomBytes(18).toString('base64url')}`;
  let site: TestSite;
  let s3: RunningS3rver;
  let pg: { url: string; drop(): Promise<void> };
  let dataDir: string;
  let farm: Farm;
  let agentUrls: string[] = [];

  const processes = new CliProcesses(() => distributedFarmEnv({ natsPrefix: prefix, s3, bucket: 'shotfarm-test', dataDir }));
  const children = processes.children;
  const start = (args: string[], extra: Record<string, string>): ChildProcess => processes.start(args, extra);

  before(async () => {
    site = await TestSite.start();
    s3 = await startS3rver();
    pg = await createThrowawayPostgres();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-farm-'));
    const apiProcess = start(['api'], { PORT: '0', DATABASE_URL: pg.url, SHOTFARM_BOOTSTRAP_KEY: key, SHOTFARM_BOOTSTRAP_CREDITS: '1000' });
    const base = await startedApiUrl(apiProcess);
    const agents = ['agent-a', 'agent-b'].map((id) => start(['agent', '--browsers', 'chrome,firefox', '--slots', '2'], { PORT: '0', SHOTFARM_NODE_ID: id }));
    agentUrls = await Promise.all(agents.map((a) => startedAgentUrl(a)));
    farm = { url: `${base}/api/v1`, key, db: knexFactory({ client: 'pg', connection: pg.url }) };
  });

  after(async () => {
    await processes.stopAll();
    await farm?.db.destroy();
    await pg?.drop();
    await s3?.stop();
    await site?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('both agents are listed with their browsers', async () => {
    const nodes = (await call(farm.url, '/admin/nodes', { key: farm.key })).body.data;
    expect(nodes.map((n: { id: string }) => n.id).sort()).to.deep.equal(['agent-a', 'agent-b']);
    for (const n of nodes) expect(n.browsers.map((b: { name: string }) => b.name)).to.deep.equal(['chrome', 'firefox']);
  });

  it(`${JOBS} jobs finish exactly once and are charged exactly once though one agent is killed with SIGKILL mid-run`, async () => {
    const before = await balanceOf(farm);
    const jobs = await createJobs(farm, site);
    // Kill agent A (only its node process, as a crash would) once a few results are in.
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const done = await farm
        .db('screenshots')
        .whereIn(
          'id',
          jobs.map((j) => j.id),
        )
        .whereNot({ status: 'processing' })
        .count('* as n');
      if (Number(done[0]?.n) >= 6) break;
      await new Promise((r) => setTimeout(r, 200));
    }
    const victim = children[1] as ChildProcess;
    victim.kill('SIGKILL');
    await expectExactlyOnce(farm, jobs, before);
    const byNode = await farm
      .db('screenshots')
      .whereIn(
        'id',
        jobs.map((j) => j.id),
      )
      .groupBy('node_id')
      .select('node_id')
      .count('* as n');
    expect(byNode.map((r) => r.node_id).sort()).to.include('agent-b');
    // The dead agent leaves the registry when its heartbeats stop.
    const nodes = (await call(farm.url, '/admin/nodes', { key: farm.key })).body.data;
    expect(nodes.map((n: { id: string }) => n.id)).to.deep.equal(['agent-b']);
  });

  it('the API and the surviving agent serve /metrics and /healthz', async () => {
    const apiMetrics = await (await fetch(farm.url.replace(/\/api\/v1$/, '/metrics'))).text();
    expect(apiMetrics).to.match(/shotfarm_queue_depth\{browser="chrome"\} \d+/);
    // Results by status (issue 18: finished / error), once per applied result; it was by outcome (applied / duplicate).
    expect(apiMetrics).to.match(/shotfarm_results_total\{status="finished"\} [1-9]/);
    const survivor = agentUrls[1] as string;
    const health = (await (await fetch(`${survivor}/healthz`)).json()) as { status: string; node: { id: string; jobsDone: number; rssBytes: number } };
    expect(health.status).to.equal('ok');
    expect(health.node.id).to.equal('agent-b');
    expect(health.node.jobsDone).to.be.above(0);
    // The agent process and its Chromium: well over the 10 MB of an empty process.
    expect(health.node.rssBytes)
      .to.be.a('number')
      .and.above(10 * 1024 * 1024);
    const agentMetrics = await (await fetch(`${survivor}/metrics`)).text();
    expect(agentMetrics).to.match(/shotfarm_capture_duration_seconds_count\{browser="chrome",driver="playwright",outcome="finished"\} [1-9]/);
    expect(agentMetrics).to.match(/shotfarm_jobs_in_flight \d+/);
    expect(agentMetrics).to.match(/shotfarm_browser_pool_size\{pool="chrome"\} [1-9]/);
    expect(agentMetrics).to.match(/shotfarm_node_resident_memory_bytes [1-9]\d{7,}/);
  });

  it('stores outputs in S3 and serves thumbnails from there', async () => {
    const [row] = await farm.db('screenshot_files').where({ kind: 'image' }).limit(1).select('screenshot_id', 'storage_key');
    expect(row.storage_key).to.match(/^screenshots\/\d+\/shot-1\.png$/);
    const t = await thumbnail(farm, `id=${row.screenshot_id}&width=640`);
    expect(t.meta).to.include({ width: 640, format: 'png' });
  });
});
