import { expect } from 'chai';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import sharp from 'sharp';
import { NATS_URL, NatsSandbox } from '../contracts/support/nats-sandbox.js';
import { agentResult } from '../support/capture-results.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';
import { until } from '../support/wait-until.js';

/**
 * Render and info?wait with two api replicas on one Postgres and one NATS (JetStream queue), as behind a
 * balancer: the request waits on replica B while replica A records the result. B's waiters wake through
 * the queue's `ended` subject, not by reading the record again while they wait (beyond-v1.md part 1).
 * Both replicas keep their outputs in one folder, the shared storage S3 is in production.
 */
describe('render with two api replicas: the wait on one wakes when the other records (postgres, NATS)', function () {
  this.timeout(240_000);
  const sandbox = new NatsSandbox();
  const storage = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-render-replicas-'));
  let site: TestSite;
  let a: TestApi;
  let b: TestApi;
  let account: TestAccount;

  before(async function () {
    site = await TestSite.start();
    const env = { NATS_URL, SHOTFARM_NATS_PREFIX: sandbox.prefix(), SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_DATA_DIR: storage };
    a = await startTestApi('postgres', env, { agent: true });
    b = await startTestApi('postgres', env, { replicaOf: a.database });
    account = await a.account(1000);
  });
  after(async function () {
    await b?.stop();
    await a?.stop();
    await site?.close();
    await sandbox.deleteStreams();
    fs.rmSync(storage, { recursive: true, force: true });
  });

  /** The record the account's newest request made, once it exists. */
  const newestRecord = async (): Promise<number> => {
    let id = 0;
    await until(
      'the render to create its record',
      async () => {
        const row = await a.database.db('screenshots').where({ company_id: account.companyId }).orderBy('id', 'desc').first('id');
        id = row ? Number(row.id) : 0;
        return id > 0;
      },
      30_000,
    );
    return id;
  };

  /** Reads of this record by replica B (its statements naming the screenshots table and the id). */
  const readsOnB = (id: number): { count: () => number; stop: () => void } => {
    let count = 0;
    const listener = (q: { sql: string; bindings?: unknown[] }): void => {
      if (/"screenshots"/.test(q.sql) && (q.bindings ?? []).some((v) => Number(v) === id)) count += 1;
    };
    b.database.db.on('query', listener);
    return { count: () => count, stop: () => void b.database.db.off('query', listener) };
  };

  it('a render waiting on B answers as soon as A records the result, without reading the record while it waits', async function () {
    const hold = `replicas-${Math.random().toString(36).slice(2)}`;
    const rendering = fetch(`${b.url}/screenshot/render?url=${encodeURIComponent(site.url(`/held/${hold}/echo`))}&timeout=60`, { headers: { 'X-API-KEY': account.key } });
    const id = await newestRecord();
    await until("B's waiter to be in place", async () => b.plane.events.waiting(id) > 0, 30_000);
    const reads = readsOnB(id);
    await new Promise((resolve) => setTimeout(resolve, 1_000));
    const readsWhileWaiting = reads.count();
    // Replica A's recorder applies an agent's result (here an error, so no file is needed).
    const recordedAt = Date.now();
    await a.plane.recorder.apply(agentResult(id, { status: 'error', error: '127.0.0.1 refused the connection.', errorCause: 'refused' }));
    const res = await rendering;
    const answeredAfter = Date.now() - recordedAt;
    reads.stop();
    site.release(hold);
    const body = await res.json();
    expect(res.status, JSON.stringify(body)).to.equal(422);
    expect(body).to.deep.include({ code: 'CAPTURE_FAILED', error: '127.0.0.1 refused the connection.' });
    expect(body.details).to.include({ screenshot_id: id, error_cause: 'refused' });
    expect(readsWhileWaiting, 'B read the record while it waited').to.equal(0);
    // A wake-up, not a poll: the answer follows the recording by a round trip, far below any poll period.
    expect(answeredAfter).to.be.below(2_000);
  });

  it('info?wait on B wakes likewise when A records', async function () {
    const created = await call(b.url, `/screenshot/create?url=${encodeURIComponent(site.url(`/held/never-${Date.now()}/echo`))}`, { key: account.key });
    expect(created.status).to.equal(200);
    const id = Number(created.body.data[0].id);
    const waiting = call(b.url, `/screenshot/info?id=${id}&wait=60`, { key: account.key });
    await until("B's waiter to be in place", async () => b.plane.events.waiting(id) > 0, 30_000);
    const recordedAt = Date.now();
    await a.plane.recorder.apply(agentResult(id, { status: 'error', error: 'The page did not answer in time.', errorCause: 'timeout' }));
    const info = await waiting;
    expect(Date.now() - recordedAt).to.be.below(2_000);
    expect(info.body.data).to.include({ id, status: 'error' });
  });

  it('a render through B of a page the farm captures answers the image at its size, whichever replica records', async function () {
    const res = await fetch(`${b.url}/screenshot/render?url=${encodeURIComponent(site.url('/echo?replicas=1'))}&screen_width=640&screen_height=360&timeout=90`, {
      headers: { 'X-API-KEY': account.key },
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.status, bytes.toString()).to.equal(200);
    expect(await sharp(bytes).metadata()).to.include({ format: 'png', width: 640, height: 360 });
  });
});
