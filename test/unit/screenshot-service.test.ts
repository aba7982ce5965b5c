import { expect } from 'chai';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { FarmDispatcher, NOT_QUEUED } from '../../api/farm/farm-dispatcher.js';
import { ScreenshotEvents } from '../../api/screenshots/screenshot-events.js';
import type { Caller } from '../../api/http/state.js';
import { ScreenshotRecords } from '../../api/screenshots/screenshot-records.js';
import { ScreenshotService } from '../../api/screenshots/screenshot-service.js';
import { ScreenshotStore } from '../../api/screenshots/screenshot-store.js';
import { loadConfig } from '../../core/config/load-config.js';
import type { CaptureJob } from '../../core/contracts/job-queue.js';
import { connectDatabase, type Db } from '../../api/db/connect.js';
import { migrateLatest } from '../../api/db/migrate.js';
import { ApiError } from '../../core/errors.js';
import { chromeNode } from '../support/node-status.js';
import { parseQuery } from '../../api/options/query-input.js';
import { createLogger } from '../../core/logger.js';
import { FilesystemObjectStore } from '../../core/storage/filesystem-store.js';
import { MemoryJobQueue } from '../../grid/queue/memory-job-queue.js';
import { MemoryNodeRegistry } from '../../grid/registry/memory-node-registry.js';
import { Admission } from '../../grid/scheduling/admission.js';

/**
 * A queue for these tests only: the in-process queue, with a switch that makes enqueue fail the way an
 * unreachable NATS does, and a list of what was queued. No agent consumes it: records stay `processing`.
 */
class SwitchableTestQueue extends MemoryJobQueue {
  readonly queued: CaptureJob[] = [];
  down = false;

  override async enqueue(job: CaptureJob): Promise<void> {
    if (this.down) throw new Error('test queue is down');
    this.queued.push(job);
    await super.enqueue(job);
  }
}

/**
 * ScreenshotService without a browser or a server: in-memory Postgres (PGlite, the embedded mode's own
 * database), the in-process queue and registry, and no agent. What the create path promises: nothing is
 * created when a check fails, a job per fresh record, cache hits cost no browser work, and a job that
 * cannot be queued never leaves its record waiting.
 */
describe('ScreenshotService (no browser, in-memory database)', function () {
  this.timeout(30_000);
  let db: Db;
  let dir: string;
  let queue: SwitchableTestQueue;
  let registry: MemoryNodeRegistry;
  let service: ScreenshotService;
  let records: ScreenshotRecords;
  let caller: Caller;
  const config = loadConfig({});

  /** The records and ledger rows of the test account, to show a refused call changed nothing. */
  const footprint = async (): Promise<{ records: number; ledger: number; balance: number; held: number }> => ({
    records: Number((await db('screenshots').where({ company_id: caller.companyId }).count({ n: '*' }).first())?.n),
    ledger: Number((await db('credit_ledger').where({ company_id: caller.companyId }).count({ n: '*' }).first())?.n),
    balance: Number((await db('companies').where({ id: caller.companyId }).first('balance'))?.balance),
    held: Number((await db('companies').where({ id: caller.companyId }).first('held_credits'))?.held_credits),
  });

  const refusal = async (call: Promise<unknown>): Promise<ApiError> => {
    const err = await call.then(
      () => null,
      (e: unknown) => e,
    );
    expect(err, 'the call should have been refused').to.be.instanceOf(ApiError);
    return err as ApiError;
  };

  beforeEach(async () => {
    dir = mkdtempSync(path.join(tmpdir(), 'shotfarm-service-unit-'));
    db = await connectDatabase({ databaseUrl: null, pglite: 'memory' });
    await migrateLatest(db);
    const [company] = await db('companies').insert({ name: 'unit', email: '', balance: 3 }).returning('id');
    caller = { companyId: Number(company.id), apiKeyId: null, userId: null, credential: 'unit', roles: [] };
    queue = new SwitchableTestQueue();
    registry = new MemoryNodeRegistry({ ttlMs: 60_000 });
    await registry.heartbeat(chromeNode({ id: 'unit-node', host: 'localhost' }));
    const log = createLogger('silent');
    const store = new ScreenshotStore(db);
    records = new ScreenshotRecords(db, store, new FilesystemObjectStore({ root: dir, signingSecret: 'unit', baseUrl: 'http://localhost' }), new ScreenshotEvents(new MemoryJobQueue()), log);
    const dispatcher = new FarmDispatcher(queue, new Admission(queue, registry, config.farm.maxBacklog), config.farm.proxies, records, log);
    service = new ScreenshotService(db, store, records, config, dispatcher);
  });

  afterEach(async () => {
    await queue.close();
    await registry.close();
    await db.destroy();
    rmSync(dir, { recursive: true, force: true });
  });

  it('inserts one processing record per URL and queues one job per record, carrying the record id', async function () {
    const rows = await service.create(caller, parseQuery('url=http://a.test/&country=us'));
    expect(rows.map((r) => r.status)).to.deep.equal(['processing']);
    expect(queue.queued.map((j) => j.spec.id)).to.deep.equal([rows[0]?.id]);
    expect(queue.queued[0]?.companyId).to.equal(caller.companyId);
    expect(queue.queued[0]?.tier).to.equal('normal');
  });

  it('holds the credits of processing records: a create the rest of the balance cannot cover is refused with 403 and creates nothing', async function () {
    await service.create(caller, parseQuery('url=http://a.test/1&url=http://a.test/2'));
    const before = await footprint();
    const err = await refusal(service.create(caller, parseQuery('url=http://a.test/3&url=http://a.test/4')));
    expect(err.status).to.equal(403);
    expect(err.message).to.match(/costs 2 credit\(s\) and 1 are available/);
    expect(await footprint()).to.deep.equal(before);
    expect(queue.queued).to.have.length(2);
  });

  it('concurrent creates at the edge of the balance: exactly the affordable ones are created; an ending releases what its record held', async function () {
    const answers = await Promise.allSettled(Array.from({ length: 6 }, (_, i) => service.create(caller, parseQuery(`url=http://a.test/edge/${i}`))));
    const created = answers.flatMap((a) => (a.status === 'fulfilled' ? a.value : []));
    const refused = answers.flatMap((a) => (a.status === 'rejected' ? [a.reason as ApiError] : []));
    expect(created, 'created with 3 credits').to.have.length(3);
    expect(refused.map((e) => e.status)).to.deep.equal([403, 403, 403]);
    expect(await footprint()).to.deep.equal({ records: 3, ledger: 0, balance: 3, held: 3 });
    // One ends without a result (never queued): its credit is free again, and one more create fits.
    expect(await records.endWithError([created[0]?.id as number], 'unit: not queued', 'not_queued')).to.deep.equal([created[0]?.id]);
    expect((await footprint()).held).to.equal(2);
    await service.create(caller, parseQuery('url=http://a.test/edge/again'));
    expect((await refusal(service.create(caller, parseQuery('url=http://a.test/edge/over')))).status).to.equal(403);
    expect(await footprint()).to.deep.equal({ records: 4, ledger: 0, balance: 3, held: 3 });
  });

  it('refuses bad input with 400 naming the field, and an unknown app id with 400 naming it; nothing is created', async function () {
    const before = await footprint();
    const bad = await refusal(service.create(caller, parseQuery('url=http://a.test/&delay=soon')));
    expect(bad.status).to.equal(400);
    expect(Object.keys(bad.extra.fields ?? {})).to.include('delay');
    const unknownApp = await refusal(service.create(caller, parseQuery('url=http://a.test/&apps=nope')));
    expect(unknownApp.status).to.equal(400);
    expect(JSON.stringify(unknownApp.extra.fields?.apps)).to.match(/unknown app id\(s\): nope/);
    expect(await footprint()).to.deep.equal(before);
    expect(queue.queued).to.deep.equal([]);
  });

  it('answers 503 before any record exists when no node offers the browser', async function () {
    const err = await refusal(service.create(caller, parseQuery('url=http://a.test/&browser=firefox')));
    expect(err.status).to.equal(503);
    expect(err.code).to.equal('BROWSER_UNAVAILABLE');
    expect((await footprint()).records).to.equal(0);
  });

  it('reuses an identical finished capture within `cache` seconds: a finished record at no cost, and no job', async function () {
    const [first] = await service.create(caller, parseQuery('url=http://a.test/&cache=600'));
    await db('screenshots').where({ id: first?.id }).update({ status: 'finished', finished_at: db.fn.now() });
    const [again] = await service.create(caller, parseQuery('url=http://a.test/&cache=600'));
    expect(again?.id).to.not.equal(first?.id);
    expect(again?.status).to.equal('finished');
    expect(again?.cost).to.equal(0);
    expect(queue.queued.map((j) => j.spec.id)).to.deep.equal([first?.id]);
  });

  it('a single request whose job cannot be queued gets 503, and its record ends error, not waiting, charged nothing', async function () {
    queue.down = true;
    const before = await footprint();
    const err = await refusal(service.create(caller, parseQuery('url=http://a.test/')));
    expect(err.status).to.equal(503);
    const rows = await db('screenshots').where({ company_id: caller.companyId }).select('status', 'error', 'error_cause');
    expect(rows).to.deep.equal([{ status: 'error', error: NOT_QUEUED, error_cause: 'not_queued' }]);
    const after = await footprint();
    expect([after.balance, after.ledger]).to.deep.equal([before.balance, before.ledger]);
  });

  it('a batch or crawl whose jobs cannot be queued is answered its records as they ended (no throw), each ended once', async function () {
    queue.down = true;
    const rows = await service.create(caller, parseQuery('url=http://a.test/1&url=http://a.test/2')).catch((e: unknown) => e);
    expect(rows, 'a plain create of several URLs is one request: refused').to.be.instanceOf(ApiError);
    const { buildCreateRequest, createContextOf } = await import('../../api/options/create-request.js');
    const drafts = buildCreateRequest(parseQuery('url=http://b.test/1&url=http://b.test/2'), { ...createContextOf(config), cacheDefaultSeconds: 0 }).drafts;
    const batch = await service.createDrafts(caller, drafts, {
      bulk: true,
      prepare: async (trx) => {
        const [row] = await trx('batches').insert({ company_id: caller.companyId, name: 'unit', status: 'processing' }).returning('id');
        return { batch_id: Number(row.id) };
      },
    });
    expect(batch.map((r) => [r.status, r.error])).to.deep.equal([
      ['error', NOT_QUEUED],
      ['error', NOT_QUEUED],
    ]);
  });
});
