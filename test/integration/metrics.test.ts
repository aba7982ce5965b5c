import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { UNMATCHED_ROUTE } from '../../api/http/request-metrics.js';
import type { CaptureResult } from '../../core/contracts/job-queue.js';
import { agentResult } from '../support/capture-results.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';
import { CLI_PATH } from '../support/run-cli.js';
import { parsePrometheusText, sampleSum, samplesOf, type Sample } from '../support/prometheus-text.js';
import { TestSite } from '../support/test-site.js';
import { until } from '../support/wait-until.js';

/**
 * The metrics of the embedded service, read as Prometheus reads them: the real `shotfarm serve` (API, in-process
 * queue and a Chromium agent in one process) takes a capture, then GET /metrics is parsed.
 */
describe('metrics of the embedded service (shotfarm serve)', function () {
  this.timeout(120_000);
  const key = 'metrics-test-key-0123456789';
  let site: TestSite;
  let dataDir: string;
  let child: ChildProcess;
  let exited: Promise<number | null>;
  let base: string;
  let samples: Sample[];
  let captureId: number;

  before(async () => {
    site = await TestSite.start();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-metrics-'));
    child = spawn(process.execPath, [CLI_PATH, 'serve'], {
      env: {
        PATH: process.env.PATH ?? '',
        PORT: '0',
        HOST: '127.0.0.1',
        SHOTFARM_DATA_DIR: dataDir,
        LOG_LEVEL: 'silent',
        SHOTFARM_BOOTSTRAP_KEY: key,
        SHOTFARM_ALLOW_PRIVATE_TARGETS: 'true',
        SHOTFARM_AGENT_BROWSERS: 'chrome',
        SHOTFARM_AGENT_SLOTS: '1',
      },
    });
    exited = new Promise((resolve) => child.once('exit', resolve));
    let out = '';
    child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
    base = await until('serve to print its URL', async () => /running at (http:\/\/\S+)/.exec(out)?.[1]);
    const created = (await (await fetch(`${base}/api/v1/screenshot/create?key=${key}&url=${encodeURIComponent(site.url('/target.html'))}`)).json()) as { data: { id: number }[] };
    captureId = created.data[0]!.id;
    const info = (await (await fetch(`${base}/api/v1/screenshot/info?key=${key}&id=${captureId}&wait=60`)).json()) as { data: { status: string } };
    expect(info.data.status).to.equal('finished');
    // A request no route takes, with a secret-looking path: it must not become a label.
    await fetch(`${base}/no-such-page/sf_secret_in_path`);
    // Refused by the API router's authentication middleware, before its route runs.
    await fetch(`${base}/api/v1/screenshot/info?key=sf_wrong_key&id=${captureId}`);
    const res = await fetch(`${base}/metrics`);
    expect(res.headers.get('content-type')).to.match(/^text\/plain/);
    samples = parsePrometheusText(await res.text());
  });

  after(async () => {
    if (child && child.exitCode === null) child.kill('SIGTERM');
    await exited;
    await site?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it("records the embedded agent's capture: duration histogram for chrome / playwright / finished", () => {
    expect(sampleSum(samples, 'shotfarm_capture_duration_seconds_count', { browser: 'chrome', driver: 'playwright', outcome: 'finished' })).to.be.at.least(1);
    expect(sampleSum(samples, 'shotfarm_jobs_in_flight')).to.equal(0);
    expect(samplesOf(samples, 'shotfarm_browser_pool_size').length).to.be.at.least(1);
    // The tree of serve and its Chromium: well over the 10 MB of an empty node process.
    expect(sampleSum(samples, 'shotfarm_node_resident_memory_bytes')).to.be.greaterThan(10 * 1024 * 1024);
  });

  it('counts results by status', () => {
    expect(sampleSum(samples, 'shotfarm_results_total', { status: 'finished' })).to.equal(1);
    expect(sampleSum(samples, 'shotfarm_results_total', { status: 'error' })).to.equal(0);
  });

  it('counts the SQL statements the control plane sent (migrations, a create, its result: more than a capture alone)', () => {
    expect(sampleSum(samples, 'shotfarm_db_statements_total')).to.be.at.least(6);
  });

  it('times HTTP requests per route template, never the raw URL', () => {
    expect(sampleSum(samples, 'shotfarm_http_request_duration_seconds_count', { method: 'GET', route: '/api/v1/screenshot/create', status: '200' })).to.equal(1);
    expect(sampleSum(samples, 'shotfarm_http_request_duration_seconds_count', { route: '/api/v1/screenshot/info', status: '200' })).to.equal(1);
    expect(sampleSum(samples, 'shotfarm_http_request_duration_seconds_count', { route: '/api/v1/screenshot/info', status: '401' })).to.equal(1);
    expect(sampleSum(samples, 'shotfarm_http_request_duration_seconds_count', { route: UNMATCHED_ROUTE, status: '404' })).to.equal(1);
    const routes = new Set(samplesOf(samples, 'shotfarm_http_request_duration_seconds_count').map((s) => s.labels.route));
    for (const route of routes) expect(route).to.not.match(/sf_secret|sf_wrong|key=|\?|metrics-test-key|\d{2,}/);
  });

  it('shows nodes and slots by state', () => {
    expect(sampleSum(samples, 'shotfarm_nodes', { state: 'active' })).to.equal(1);
    expect(sampleSum(samples, 'shotfarm_nodes', { state: 'draining' })).to.equal(0);
    expect(sampleSum(samples, 'shotfarm_slots', { state: 'free' }) + sampleSum(samples, 'shotfarm_slots', { state: 'busy' })).to.equal(1);
    expect(sampleSum(samples, 'shotfarm_queue_depth', { browser: 'chrome' })).to.equal(0);
  });

  it("exports Node's default metrics under their standard names", () => {
    for (const name of ['process_cpu_seconds_total', 'process_resident_memory_bytes', 'nodejs_heap_size_used_bytes', 'nodejs_eventloop_lag_seconds']) {
      expect(samplesOf(samples, name).length, name).to.be.at.least(1);
    }
    expect(samples.some((s) => s.name.startsWith('shotfarm_process_'))).to.equal(false);
  });
});

/**
 * The control plane's own metrics with no agent (the declared contract node): app runs by type and status, read
 * from the database, and results by status as the queue delivers them (a redelivered one counted once).
 */
describe('metrics of the control plane: app runs and results by status', function () {
  this.timeout(60_000);
  let api: TestApi;

  before(async () => {
    api = await startTestApi('pglite');
  });
  after(async () => {
    await api?.stop();
  });

  const scrape = async (): Promise<Sample[]> => parsePrometheusText(await (await fetch(`${api.plane.url}/metrics`)).text());

  it('counts app runs by app type and status', async () => {
    const acct = await api.account(100);
    const created = await call(api.url, '/app/create', {
      method: 'POST',
      key: acct.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ app_id: 'hook', type: 'webhook', name: 'hook', settings: { url: 'http://127.0.0.1:9/hook', secret: `whsec_${'A'.repeat(32)}` } }),
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    for (const i of [1, 2]) {
      const shot = await call(api.url, `/screenshot/create?url=${encodeURIComponent(`http://example.test/${i}`)}&apps=hook`, { key: acct.key });
      expect(shot.status, JSON.stringify(shot.body)).to.equal(200);
    }
    const samples = await scrape();
    // The records wait for a capture (no agent takes them): their runs are pending.
    expect(samplesOf(samples, 'shotfarm_app_runs').map((s) => [s.labels, s.value])).to.deep.equal([[{ type: 'webhook', status: 'pending' }, 2]]);
    expect(sampleSum(samples, 'shotfarm_nodes', { state: 'active' })).to.equal(1);
    expect(sampleSum(samples, 'shotfarm_slots')).to.equal(0);
  });

  it('counts results by status, a redelivered result once', async () => {
    const acct = await api.account(100);
    const create = async (): Promise<number> =>
      (await call(api.url, `/screenshot/create?url=${encodeURIComponent('http://example.test/broken')}&cache=false`, { key: acct.key })).body.data[0].id as number;
    const errorResult = (id: number): CaptureResult =>
      agentResult(id, { status: 'error', error: 'net::ERR_NAME_NOT_RESOLVED', finalUrl: 'http://example.test/broken', finalUrls: [], responseCode: 0 });
    const status = async (id: number): Promise<string> => (await call(api.url, `/screenshot/info?id=${id}`, { key: acct.key })).body.data?.status;
    const first = await create();
    await api.parts.queue.publishResult(errorResult(first));
    await until('the result to be recorded', async () => (await status(first)) === 'error');
    // Redelivered, then a marker: the marker's record ends after the redelivery was handled (its transaction
    // finds the record ended and commits nothing; the marker's ends a record, charges and queues app runs).
    await api.parts.queue.publishResult(errorResult(first));
    const marker = await create();
    await api.parts.queue.publishResult(errorResult(marker));
    await until('the marker to be recorded', async () => (await status(marker)) === 'error');
    const samples = await scrape();
    expect(sampleSum(samples, 'shotfarm_results_total', { status: 'error' })).to.equal(2);
    expect(sampleSum(samples, 'shotfarm_results_total', { status: 'finished' })).to.equal(0);
  });

  it('shows the age of the oldest queued job per lane, and counts screenshots cancelled with their batch', async () => {
    const acct = await api.account(100);
    const created = await call(api.url, '/batch/create', {
      method: 'POST',
      key: acct.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ urls: ['http://example.test/a', 'http://example.test/b'], browser: 'firefox' }),
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const age = (samples: Sample[]): number => sampleSum(samples, 'shotfarm_queue_oldest_age_seconds', { browser: 'firefox', tier: 'bulk' });
    // Nothing takes the jobs (the declared node has no slot): the lane's oldest job ages.
    const waiting = await until(
      'the queued batch to be over a second old',
      async () => {
        const samples = await scrape();
        return age(samples) >= 1 ? samples : null;
      },
      10_000,
    );
    expect(sampleSum(waiting, 'shotfarm_queue_oldest_age_seconds', { browser: 'brave', tier: 'bulk' }), 'an empty lane').to.equal(0);
    // The scaling signal: two firefox jobs wait and no agent has a slot, so at least one agent is needed.
    expect(sampleSum(waiting, 'shotfarm_agents_needed', { browser: 'firefox' }), 'agents needed for the waiting batch').to.be.at.least(1);
    const cancelled = await call(api.url, `/batch/cancel?id=${created.body.data[0].id}`, { method: 'POST', key: acct.key });
    expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
    const samples = await scrape();
    expect(sampleSum(samples, 'shotfarm_results_total', { status: 'cancelled' })).to.equal(2);
    expect(age(samples), 'the lane is empty again').to.equal(0);
    expect(sampleSum(samples, 'shotfarm_agents_needed', { browser: 'firefox' }), 'no firefox work left').to.equal(0);
  });
});
