import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { runAgent } from '../../bin/agent.js';
import { loadConfig } from '../../core/config/load-config.js';
import { createLogger } from '../../core/logger.js';
import { AutoscalerSim, type SimAgent } from '../support/autoscaler-sim.js';
import { NatsSandbox, NATS_URL } from '../contracts/support/nats-sandbox.js';
import { startS3rver, S3RVER_CREDENTIALS, type RunningS3rver } from '../support/s3rver.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';
import { until } from '../support/wait-until.js';

/**
 * Issue #31's scaling simulation: the api (over NATS JetStream, Postgres and s3rver) exports
 * shotfarm_agents_needed; a loop playing KEDA's part (test/support/autoscaler-sim.ts: the ScaledObject's
 * min 1, max, up at once, down after a stabilization window, compressed) starts real agent roots
 * (bin/agent.ts's runAgent, the null driver) up to the gauge and removes them only through the drain the
 * pod's preStop runs (`shotfarm nodes drain ID`, the registry's drain request). A 1,000-URL batch arrives,
 * then nothing: the agents must scale up and back down with every capture ended exactly once (one
 * application by the recorder, one ledger debit, one image per record) and no job left in the queue.
 */
const URLS = 1000;
const SLOTS = 4;
/** What a capture takes on the null driver: one agent alone takes 8/s, less than the api queues a batch (~30-50/s loaded), so the queue grows and scaling up pays. */
const CAPTURE_MS = 500;
const MIN_AGENTS = 1;
const MAX_AGENTS = 8;

describe(`scaling on shotfarm_agents_needed: a ${URLS}-URL batch, then idle (null-driver agents, NATS, Postgres, S3)`, function () {
  this.timeout(240_000);
  const sandbox = new NatsSandbox();
  const agents = new Map<string, { stop: () => Promise<void> }>();
  let s3: RunningS3rver;
  let api: TestApi;
  let dataDir: string;
  let env: Record<string, string>;

  before(async () => {
    s3 = await startS3rver();
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-autoscale-'));
    env = {
      NATS_URL,
      SHOTFARM_NATS_PREFIX: sandbox.prefix(),
      S3_ENDPOINT: s3.endpoint,
      S3_ACCESS_KEY: S3RVER_CREDENTIALS.accessKey,
      S3_SECRET_KEY: S3RVER_CREDENTIALS.secretKey,
      S3_BUCKET: 'shotfarm-autoscale-test',
      // A drain request is read on the next heartbeat, and a node is gone after three missed ones.
      SHOTFARM_HEARTBEAT_SECONDS: '1',
      // The api's gauge divides by the agents' slots: the same ConfigMap value for both, as in the manifests.
      SHOTFARM_AGENT_SLOTS: String(SLOTS),
      SHOTFARM_DRIVER: 'null',
      SHOTFARM_ALLOW_NULL_DRIVER: 'true',
      SHOTFARM_NULL_DRIVER_DELAY_MS: String(CAPTURE_MS),
    };
    api = await startTestApi('postgres', env);
  });

  after(async () => {
    for (const a of agents.values()) await a.stop().catch(() => undefined);
    await api?.stop();
    await sandbox.deleteStreams();
    await s3?.stop();
    if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
  });

  /** One agent pod: the real agent root with its own NATS connection, S3 client and HTTP port. */
  const startAgent = async (id: string): Promise<SimAgent> => {
    const config = loadConfig({ ...env, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'silent', SHOTFARM_DATA_DIR: dataDir, SHOTFARM_NODE_ID: id });
    const agent = await runAgent(config, createLogger('silent'));
    agents.set(id, agent);
    // As bin/agent.ts does: a drain carried out stops the process.
    const gone = agent.drained.then(async () => {
      await agent.stop();
      agents.delete(id);
    });
    return { id, gone };
  };

  it('scales up to the burst and back to the minimum through drains only; every capture ends exactly once, none is left queued', async () => {
    const applied = new Map<number, number>();
    api.plane.recorder.onApplied(async (done) => void applied.set(done.id, (applied.get(done.id) ?? 0) + 1));
    const scaler = new AutoscalerSim({
      metricsUrl: `${api.plane.url}/metrics`,
      startAgent,
      // What the preStop's `shotfarm nodes drain $SHOTFARM_NODE_ID` does.
      drain: async (id) => {
        expect(await api.parts.registry.requestDrain(id, true), `${id} is in the registry`).to.equal(true);
      },
      min: MIN_AGENTS,
      max: MAX_AGENTS,
      pollMs: 250,
      scaleDownWindowMs: 3_000,
    });
    await scaler.start();
    const acct = await api.account(URLS * 2);

    const t0 = Date.now();
    const urls = Array.from({ length: URLS }, (_, i) => `http://burst.test/${i}`);
    // The create answers once every job is queued; the agents take jobs (and the gauge moves) meanwhile.
    const creating = call(api.url, '/batch/create', { method: 'POST', key: acct.key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ urls }) }).then((res) => ({
      ...res,
      ms: Date.now() - t0,
    }));
    const scaledUp = await until('the agents to reach the maximum', async () => (scaler.replicas() === MAX_AGENTS ? Date.now() - t0 : null), 120_000);
    const created = await creating;
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const batchId = created.body.data[0].id as number;
    const createdMs = created.ms;
    const batch = await until(
      'the batch to end',
      async () => {
        const info = (await call(api.url, `/batch/info?id=${batchId}`, { key: acct.key })).body.data;
        return info.status === 'processing' ? null : info;
      },
      180_000,
    );
    const ended = Date.now() - t0;
    expect(batch.status, JSON.stringify(batch)).to.equal('finished');
    await until('the agents to be back at the minimum, the drained ones gone', async () => scaler.replicas() === MIN_AGENTS && scaler.leavingCount() === 0, 60_000);
    const drainedBack = Date.now() - t0 - ended;
    const remaining = await scaler.stop();
    const timeline = scaler.result();

    const db = api.database.db;
    const ids = (await db('screenshots').where({ batch_id: batchId }).pluck('id')).map(Number);
    expect(ids.length).to.equal(URLS);
    const statuses = await db('screenshots').whereIn('id', ids).groupBy('status').select('status', db.raw('count(*)::int as n'));
    const finished = statuses.find((s) => s.status === 'finished')?.n ?? 0;
    const debits = await db('credit_ledger').whereIn('screenshot_id', ids).groupBy('screenshot_id').select('screenshot_id', db.raw('count(*)::int as n'));
    const images = Number((await db('screenshot_files').whereIn('screenshot_id', ids).where({ kind: 'image' }).count('* as n'))[0]?.n);
    const duplicates = [...applied.values()].filter((n) => n > 1).length + debits.filter((d) => d.n > 1).length;
    const lost = URLS - finished;
    const depth = Object.values(await api.parts.queue.depth()).reduce((a, b) => a + b, 0);
    const waiting = await api.parts.queue.oldestWaiting();
    const nodes = await api.parts.registry.list();

    console.log(
      `      measured: ${URLS} URLs (${SLOTS} slots per agent, ${CAPTURE_MS} ms per capture): batch created in ${createdMs} ms; gauge peak ${timeline.peakNeeded}; ` +
        `peak agents ${Math.max(...timeline.replicas.map(([, n]) => n))} (max ${MAX_AGENTS}) reached ${scaledUp} ms after the batch was sent; batch ended at ${ended} ms; ` +
        `drained back to ${MIN_AGENTS} ${drainedBack} ms later; started ${timeline.started}, drained ${timeline.drained}; lost ${lost}, duplicates ${duplicates}; queue depth ${depth}; load ${os.loadavg()[0]?.toFixed(1)}`,
    );
    console.log(`      measured: replicas over time (ms: agents) ${timeline.replicas.map(([t, n]) => `${t}:${n}`).join(' ')}`);

    expect(statuses, 'every capture finished').to.deep.equal([{ status: 'finished', n: URLS }]);
    expect(lost, 'captures lost').to.equal(0);
    expect(applied.size, 'every record applied by the recorder').to.equal(URLS);
    expect(duplicates, 'results applied or charged twice').to.equal(0);
    expect(debits.length, 'one debit per capture').to.equal(URLS);
    expect(images, 'one image per capture').to.equal(URLS);
    expect(depth, 'jobs left in the queue').to.equal(0);
    expect(waiting, 'no lane has a waiting job').to.deep.equal([]);
    expect(timeline.peakNeeded, 'the gauge asked for more than the maximum').to.be.at.least(MAX_AGENTS);
    expect(timeline.started - timeline.drained, 'every agent above the minimum left through a drain').to.equal(MIN_AGENTS);
    expect(remaining).to.have.length(MIN_AGENTS);
    expect(
      nodes.map((n) => n.id),
      'the drained agents left the registry',
    ).to.deep.equal(remaining);
  });
});
