import { expect } from 'chai';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { CaptureResult } from '../../core/contracts/job-queue.js';
import { createLogger } from '../../core/logger.js';
import { shotKey } from '../../core/storage/storage-keys.js';
import { Admission } from '../../grid/scheduling/admission.js';
import { FarmDispatcher } from '../../api/farm/farm-dispatcher.js';
import { requeueInterrupted } from '../../api/farm/requeue-interrupted.js';
import { createScreenshot } from '../support/app-runs.js';
import { agentResult } from '../support/capture-results.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { until } from '../support/wait-until.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/** 32 bytes of base64 after whsec_: the shortest secret the webhook app accepts. */
const SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
/** A waiter's `wait`: an ending must wake it long before this. */
const WAIT_SECONDS = 20;
/** How soon a woken waiter answers at most, and how soon the app runs of an ended record settle. */
const WOKEN_WITHIN_MS = 5_000;
const SETTLED_WITHIN_MS = 15_000;

/** A WebDAV folder as the example plugin's users run one: it counts the PUTs per path. */
class DavFolder {
  readonly puts: string[] = [];
  private readonly server = http.createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      this.puts.push(String(req.url));
      res.writeHead(201).end();
    });
  });

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return this;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/dav/`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The credits an account's processing records hold, and its balance, as the account's row keeps them. */
async function credits(api: TestApi, acct: TestAccount): Promise<{ held: number; balance: number }> {
  const row = await api.database.db('companies').where({ id: acct.companyId }).first('held_credits', 'balance');
  return { held: Number(row.held_credits), balance: Number(row.balance) };
}

/** The ledger's debits of these screenshots (one row per charge). */
async function debits(api: TestApi, ids: number[]): Promise<number> {
  return Number((await api.database.db('credit_ledger').whereIn('screenshot_id', ids).count({ n: '*' }).first())?.n);
}

/** A result of record `id` as an agent publishes it (a finished one has its image stored first). */
function resultOf(id: number, status: 'finished' | 'error'): CaptureResult {
  return agentResult(id, {
    status,
    error: status === 'error' ? 'net::ERR_CONNECTION_REFUSED' : '',
    files: status === 'finished' ? [{ kind: 'image', shot: 1, key: shotKey(id, 1), size: 4, contentType: 'image/png' }] : [],
    responseCode: status === 'finished' ? 200 : 0,
  });
}

/**
 * A screenshot ends in one of several ways: its result (finished or failed), its batch's cancel, its crawl's
 * cancel, or its job never queued (at create, or when the restart of embedded mode queues it again). Whichever
 * way, the same three things follow: every request waiting for it (`info?wait`) answers at once, and every app
 * run on it leaves `pending` once: an app that runs on errors (the webhook) runs once, one that does not (an
 * upload) ends `error` saying why, and nothing is left waiting for a screenshot that will never come.
 * No agent runs: records stay `processing` until the test ends them; results are applied as an agent's arrive.
 */
for (const kind of DATABASE_KINDS)
  describe(`every way a screenshot can end settles its app runs once and wakes its waiters (${kind})`, function () {
    this.timeout(120_000);
    // Each API below has its own database (ids start at 1 in each): each has its own receivers too.
    let receiver: WebhookReceiver;
    let dav: DavFolder;

    beforeEach(async () => {
      receiver = await WebhookReceiver.start(SECRET);
      dav = await new DavFolder().start();
    });
    afterEach(async () => {
      await receiver?.close();
      await dav?.close();
    });

    /** An API with no agent, with the example WebDAV plugin loaded. */
    const apiWithPlugin = (): Promise<TestApi> => startTestApi(kind, { SHOTFARM_PLUGINS: './dist/plugins/examples/webdav-app.js' });

    /** A new account with a webhook (`hook`) and a WebDAV upload (`dav`) app to this test's receivers, and their configuration ids. */
    async function accountWithApps(api: TestApi): Promise<{ acct: TestAccount; configIds: number[] }> {
      const acct = await api.account(1000);
      const configIds: number[] = [];
      for (const body of [
        { app_id: 'hook', type: 'webhook', settings: { url: receiver.url, secret: SECRET } },
        { app_id: 'dav', type: 'webdav', settings: { base_url: dav.url, path: '{id}' } },
      ]) {
        const created = await call(api.url, '/app/create', { method: 'POST', key: acct.key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
        expect(created.status, JSON.stringify(created.body)).to.equal(200);
        configIds.push(Number(created.body.data.id));
      }
      return { acct, configIds };
    }

    const createBatch = async (api: TestApi, acct: TestAccount, configIds: number[], tag: string): Promise<number[]> => {
      const form = new FormData();
      form.append('file', new Blob([`http://example.test/${tag}/1\nhttp://example.test/${tag}/2\n`]), 'urls.txt');
      form.append('apps', configIds.join(','));
      const created = await call(api.url, '/batch/create', { method: 'POST', key: acct.key, body: form });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const batchId = Number(created.body.data[0].id);
      const ids = (await api.database.db('screenshots').where({ batch_id: batchId }).orderBy('id').pluck('id')).map(Number);
      expect(ids).to.have.length(2);
      const held = Number((await api.database.db('companies').where({ id: acct.companyId }).first('held_credits')).held_credits);
      const processing = await api.database.db('screenshots').whereIn('id', ids).where({ status: 'processing' }).count({ n: '*' }).first();
      expect(held, 'the processing records of the batch hold their cost').to.equal(Number(processing?.n));
      return [batchId, ...ids];
    };

    /** Starts an `info?wait` request per record and resolves once each is waiting in the service. */
    async function waitersOn(api: TestApi, acct: TestAccount, ids: number[]): Promise<Promise<{ status: number; body: any; ms: number }>[]> {
      const waiters = ids.map(async (id) => {
        const started = Date.now();
        const answer = await call(api.url, `/screenshot/info?id=${id}&wait=${WAIT_SECONDS}`, { key: acct.key });
        return { ...answer, ms: Date.now() - started };
      });
      await until('the waiters to be in place', async () => ids.every((id) => api.plane.events.waiting(id) > 0), 10_000);
      return waiters;
    }

    /** What must hold once records ended as `status`: waiters answered at once, app runs settled once. */
    async function expectSettled(api: TestApi, ids: number[], status: 'finished' | 'error', waiters: Promise<{ status: number; body: any; ms: number }>[] = []): Promise<void> {
      // The account holds nothing for records that ended, and only a finished one is charged (once, its cost of 1).
      const ownerId = Number((await api.database.db('screenshots').where({ id: ids[0] }).first('company_id')).company_id);
      const owner = await api.database.db('companies').where({ id: ownerId }).first('held_credits', 'balance');
      expect(Number(owner.held_credits), 'credits still held once the records ended').to.equal(0);
      expect(await debits(api, ids), 'debits').to.equal(status === 'finished' ? ids.length : 0);
      expect(Number(owner.balance), 'the balance after the endings').to.equal(1000 - (status === 'finished' ? ids.length : 0));
      for (const waiter of await Promise.all(waiters)) {
        expect(waiter.status).to.equal(200);
        expect(waiter.body.data.status, 'the waiter saw the ended record').to.equal(status);
        expect(waiter.ms, 'the waiter was woken, not timed out').to.be.below(WOKEN_WITHIN_MS);
      }
      const db = api.database.db;
      const runs = await until(
        'the app runs to settle',
        async () => {
          const rows = await db('app_runs as r')
            .join('app_configs as c', 'c.id', 'r.app_config_id')
            .whereIn('r.screenshot_id', ids)
            .orderBy('r.id')
            .select('r.screenshot_id', 'c.type', 'r.status', 'r.error', 'r.attempts');
          return rows.length === ids.length * 2 && rows.every((r) => r.status === 'finished' || r.status === 'error') ? rows : null;
        },
        SETTLED_WITHIN_MS,
      ).catch(async (err: Error) => {
        const rows = await db('app_runs').whereIn('screenshot_id', ids).select('screenshot_id', 'status');
        throw new Error(`${err.message}: ${JSON.stringify(rows)}`);
      });
      const event = status === 'finished' ? 'screenshot_finished' : 'screenshot_failed';
      for (const id of ids) {
        const hook = runs.find((r) => Number(r.screenshot_id) === id && r.type === 'webhook');
        const upload = runs.find((r) => Number(r.screenshot_id) === id && r.type === 'webdav');
        expect(hook, `the webhook run of ${id}`).to.include({ status: 'finished', attempts: 1 });
        expect(
          receiver.requests.filter((r) => r.id === `msg_${event}_${id}`),
          `deliveries of ${event} for ${id}`,
        ).to.have.length(1);
        if (status === 'finished') {
          expect(upload, `the upload run of ${id}`).to.include({ status: 'finished', attempts: 1 });
          expect(dav.puts.filter((p) => p === `/dav/${id}.png`)).to.have.length(1);
        } else {
          expect(upload?.status, `the upload run of ${id}`).to.equal('error');
          expect(upload?.error).to.include('the screenshot failed');
          expect(
            dav.puts.filter((p) => p.startsWith(`/dav/${id}.`)),
            'nothing uploaded for a failed screenshot',
          ).to.deep.equal([]);
        }
      }
    }

    let api: TestApi;
    let acct: TestAccount;
    let configIds: number[];
    const single = async (tag: string): Promise<number> => {
      const id = await createScreenshot(api, acct.key, `url=${encodeURIComponent(`http://example.test/${tag}`)}&apps=hook&apps=dav`);
      expect(await credits(api, acct), 'a processing record holds its cost').to.deep.equal({ held: 1, balance: 1000 });
      return id;
    };

    describe('with the queue taking jobs', () => {
      before(async () => {
        api = await apiWithPlugin();
      });
      beforeEach(async () => {
        ({ acct, configIds } = await accountWithApps(api));
      });
      after(async () => api?.stop());

      it('its result, finished', async () => {
        const id = await single('finished');
        const waiters = await waitersOn(api, acct, [id]);
        // The agent stores the outputs before it publishes the result.
        await api.parts.objects.put(shotKey(id, 1), Buffer.from('png!'), { contentType: 'image/png' });
        expect(await api.plane.recorder.apply(resultOf(id, 'finished'))).to.equal('applied');
        await expectSettled(api, [id], 'finished', waiters);
      });

      it('its result, failed', async () => {
        const id = await single('failed');
        const waiters = await waitersOn(api, acct, [id]);
        expect(await api.plane.recorder.apply(resultOf(id, 'error'))).to.equal('applied');
        await expectSettled(api, [id], 'error', waiters);
      });

      it('its batch cancelled before it ran', async () => {
        const [batchId, ...ids] = await createBatch(api, acct, configIds, 'batch-cancel');
        const waiters = await waitersOn(api, acct, ids);
        const cancelled = await call(api.url, `/batch/cancel?id=${batchId}`, { method: 'POST', key: acct.key });
        expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
        await expectSettled(api, ids, 'error', waiters);
      });

      it('its crawl cancelled before it ran', async () => {
        const created = await call(api.url, '/crawl/create', {
          method: 'POST',
          key: acct.key,
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ url: 'http://example.test/crawl-cancel', domain: 'example.test', max_urls: 5, apps: ['hook', 'dav'] }),
        });
        expect(created.status, JSON.stringify(created.body)).to.equal(200);
        const crawlId = Number(created.body.data.id);
        const ids = (await api.database.db('screenshots').where({ crawl_id: crawlId }).pluck('id')).map(Number);
        expect(ids).to.have.length(1);
        expect((await credits(api, acct)).held, "the crawl's first page holds its cost").to.equal(1);
        const waiters = await waitersOn(api, acct, ids);
        expect((await call(api.url, `/crawl/cancel?id=${crawlId}`, { method: 'POST', key: acct.key })).status).to.equal(200);
        await expectSettled(api, ids, 'error', waiters);
      });

      it('its record deleted while processing (the result that comes later is an orphan): nothing held, nothing charged', async () => {
        const id = await single('deleted');
        expect((await call(api.url, `/screenshot/delete?id=${id}&data=all`, { key: acct.key })).status).to.equal(200);
        expect(await credits(api, acct)).to.deep.equal({ held: 0, balance: 1000 });
        expect(await api.plane.recorder.apply(resultOf(id, 'finished'))).to.equal('orphan');
        expect(await credits(api, acct)).to.deep.equal({ held: 0, balance: 1000 });
        expect(await debits(api, [id])).to.equal(0);
      });

      it('one result delivered twice at once is applied once: charged once, its hold released once', async () => {
        const id = await single('twice');
        await api.parts.objects.put(shotKey(id, 1), Buffer.from('png!'), { contentType: 'image/png' });
        const outcomes = await Promise.all([api.plane.recorder.apply(resultOf(id, 'finished')), api.plane.recorder.apply(resultOf(id, 'finished'))]);
        expect(outcomes.sort()).to.deep.equal(['applied', 'duplicate']);
        await expectSettled(api, [id], 'finished');
      });

      it('concurrent creates of one account at the edge of its balance: exactly the affordable ones are created, and every ending releases what it held', async () => {
        const edge = await api.account(5);
        const burst = async (n: number, tag: string): Promise<{ ok: number[]; refused: number }> => {
          const answers = await Promise.all(Array.from({ length: n }, (_, i) => call(api.url, `/screenshot/create?url=${encodeURIComponent(`http://example.test/${tag}/${i}`)}`, { key: edge.key })));
          for (const a of answers) if (a.status !== 200) expect([a.status, a.body.code], JSON.stringify(a.body)).to.deep.equal([403, 'INSUFFICIENT_BALANCE']);
          return { ok: answers.filter((a) => a.status === 200).map((a) => Number(a.body.data[0].id)), refused: answers.filter((a) => a.status === 403).length };
        };
        const first = await burst(12, 'edge');
        expect([first.ok.length, first.refused], 'created and refused of 12 creates with 5 credits').to.deep.equal([5, 7]);
        expect(Number((await api.database.db('screenshots').where({ company_id: edge.companyId }).count({ n: '*' }).first())?.n), 'nothing created by a refused create').to.equal(5);
        expect(await credits(api, edge)).to.deep.equal({ held: 5, balance: 5 });
        const [a, b, c, d, e] = first.ok as [number, number, number, number, number];
        // Two finish (charged), one fails: 3 credits left, 2 still held, so exactly one more create fits.
        expect(await api.plane.recorder.apply(agentResult(a))).to.equal('applied');
        expect(await api.plane.recorder.apply(agentResult(b))).to.equal('applied');
        expect(await api.plane.recorder.apply(resultOf(c, 'error'))).to.equal('applied');
        expect(await credits(api, edge)).to.deep.equal({ held: 2, balance: 3 });
        const second = await burst(6, 'edge-again');
        expect([second.ok.length, second.refused], 'created and refused of 6 creates with 1 credit free').to.deep.equal([1, 5]);
        expect(await credits(api, edge)).to.deep.equal({ held: 3, balance: 3 });
        // The others end without a result: never queued, and cancelled; nothing is charged for them.
        await api.plane.records.endWithError([d], 'test: not queued', 'not_queued');
        await api.plane.records.cancel([e, ...second.ok], 'test: cancelled');
        expect(await credits(api, edge)).to.deep.equal({ held: 0, balance: 3 });
        expect(await debits(api, first.ok)).to.equal(2);
      });

      it('a result that comes after its record ended changes nothing', async () => {
        const [batchId, ...ids] = await createBatch(api, acct, configIds, 'late-result');
        await call(api.url, `/batch/cancel?id=${batchId}`, { method: 'POST', key: acct.key });
        await expectSettled(api, ids, 'error');
        expect(await api.plane.recorder.apply(resultOf(ids[0] as number, 'error'))).to.equal('duplicate');
        const runs = await api.database.db('app_runs').whereIn('screenshot_id', ids).select('status', 'attempts');
        expect(
          runs.every((r) => r.attempts === 1),
          'no app ran a second time',
        ).to.equal(true);
      });
    });

    describe('with the queue refusing jobs', () => {
      beforeEach(async () => {
        api = await apiWithPlugin();
        ({ acct, configIds } = await accountWithApps(api));
      });
      // One API a test: the queue closed by a test is closed for good.
      afterEach(async () => api?.stop());

      it('its job not queued again at the restart of embedded mode', async () => {
        const id = await single('requeue');
        const waiters = await waitersOn(api, acct, [id]);
        // The queue of the restarted process refuses every job (closed): the record cannot wait for one.
        await api.parts.queue.close();
        const log = createLogger('silent');
        const dispatcher = new FarmDispatcher(api.parts.queue, new Admission(api.parts.queue, api.parts.registry, 100), {}, api.plane.records, log);
        expect(await requeueInterrupted(api.database.db, dispatcher, {}, log)).to.equal(0);
        await expectSettled(api, [id], 'error', waiters);
      });

      it('its job not queued at create (a batch keeps its records, and counts them)', async () => {
        await api.parts.queue.close();
        const [batchId, ...ids] = await createBatch(api, acct, configIds, 'not-queued');
        const rows = await api.database.db('screenshots').whereIn('id', ids).select('status', 'error', 'cost');
        expect(rows.map((r) => r.status)).to.deep.equal(['error', 'error']);
        await expectSettled(api, ids, 'error');
        // The batch heard of both endings: nothing of it is left waiting.
        const batch = (await call(api.url, `/batch/info?id=${batchId}`, { key: acct.key })).body.data;
        expect(batch).to.include({ status: 'finished', processed: 0, failed: 2 });
      });
    });
  });
