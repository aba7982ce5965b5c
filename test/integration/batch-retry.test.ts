import http from 'node:http';
import { crc32 } from 'node:zlib';
import { expect } from 'chai';
import yauzl from 'yauzl';
import { listenOnLoopback } from '../support/loopback-server.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { until } from '../support/wait-until.js';

/** Short deadlines: a page that never yields ends `error` after its attempts of a few seconds each. */
const MAX_WAIT_S = 3;

/**
 * Pages `/ok/<n>` always render; `/flaky/<n>` never yields (its script spins, so the capture ends in error)
 * while `broken` is on, and renders once it is off: the retry of a batch finds them fixed.
 */
class FlakySite {
  broken = true;
  private server = http.createServer((req, res) => {
    const spin = req.url?.startsWith('/flaky/') && this.broken;
    res
      .writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' })
      .end(`<!doctype html><html><body style="margin:0"><h1>${req.url}</h1>${spin ? '<script>for (;;) {}</script>' : ''}</body></html>`);
  });
  origin = '';
  private stopper: (() => Promise<void>) | null = null;

  async start(): Promise<void> {
    const { origin, stop } = await listenOnLoopback(this.server);
    this.origin = origin;
    this.stopper = stop;
  }

  async stop(): Promise<void> {
    await this.stopper?.();
  }
}

/** Every entry of a ZIP (name → bytes), CRC-checked. */
async function zipEntries(zip: Buffer): Promise<Map<string, Buffer>> {
  const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const out = new Map<string, Buffer>();
  for await (const entry of file.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await file.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    const data = Buffer.concat(chunks);
    expect(crc32(data) >>> 0).to.equal(entry.crc32 >>> 0);
    out.set(entry.fileName, data);
  }
  return out;
}

describe('batch retry (embedded agent, real Chromium, pages that fail and then work)', function () {
  this.timeout(240_000);
  let api: TestApi;
  let site: FlakySite;
  let owner: TestAccount;

  before(async () => {
    site = new FlakySite();
    await site.start();
    api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_AGENT_SLOTS: '2' }, { agent: true });
    owner = await api.account(100);
  });
  after(async () => {
    await api?.stop();
    await site?.stop();
  });

  const info = async (id: number): Promise<any> => (await call(api.url, `/batch/info?id=${id}`, { key: owner.key })).body.data;
  const ended = (id: number): Promise<any> =>
    until(
      `batch ${id} to end`,
      async () => {
        const b = await info(id);
        return b.status !== 'processing' ? b : null;
      },
      180_000,
    );
  const zip = async (id: number): Promise<Map<string, Buffer>> => {
    const res = await fetch(`${api.url}/batch/download?id=${id}`, { headers: { 'X-API-KEY': owner.key } });
    expect(res.status).to.equal(200);
    return zipEntries(Buffer.from(await res.arrayBuffer()));
  };
  const retry = (id: number) => call(api.url, '/batch/retry', { method: 'POST', key: owner.key, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ id }) });

  it('captures again only the failed screenshots, charges them when they finish, and the ZIP holds them in place of the failed ones', async () => {
    const urls = [`${site.origin}/ok/1`, `${site.origin}/flaky/2`, `${site.origin}/ok/3`, `${site.origin}/flaky/4`];
    const created = await call(api.url, '/batch/create', {
      method: 'POST',
      key: owner.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ urls, name: 'flaky', filename_template: 'page-{id}', max_wait: MAX_WAIT_S, screen_width: 320, screen_height: 240 }),
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const batchId = created.body.data[0].id;
    const first = await ended(batchId);
    expect(first).to.include({ status: 'finished', count: 4, processed: 2, failed: 2 });
    expect(first.attempts).to.deep.equal([{ attempt: 1, count: 4, processed: 2, failed: 2 }]);
    const shots = await api.database.db('screenshots').where({ batch_id: batchId }).orderBy('id').select('id', 'url', 'status');
    const failedIds = shots.filter((s) => s.status === 'error').map((s) => Number(s.id));
    const finishedIds = shots.filter((s) => s.status === 'finished').map((s) => Number(s.id));
    expect(shots.filter((s) => s.status === 'error').map((s) => s.url)).to.deep.equal([urls[1], urls[3]]);
    const before = await zip(batchId);
    expect([...before.keys()].sort()).to.deep.equal(finishedIds.map((id) => `page-${id}.png`).sort());
    const balanceBefore = (await call(api.url, '/account/info', { key: owner.key })).body.data.balance;

    site.broken = false;
    const retried = await retry(batchId);
    expect(retried.status, JSON.stringify(retried.body)).to.equal(200);
    expect(retried.body.data).to.include({ status: 'processing', count: 4, processed: 2, failed: 0 });
    expect(retried.body.data.attempts).to.deep.equal([
      { attempt: 1, count: 4, processed: 2, failed: 2 },
      { attempt: 2, count: 2, processed: 0, failed: 0 },
    ]);
    // Once is enough: a second retry while the first runs is refused, and changes nothing.
    const again = await retry(batchId);
    expect(again.status).to.equal(409);
    expect(again.body).to.include({ success: false, code: 'CONFLICT' });

    const second = await ended(batchId);
    expect(second).to.include({ status: 'finished', count: 4, processed: 4, failed: 0 });
    expect(second.attempts).to.deep.equal([
      { attempt: 1, count: 4, processed: 2, failed: 2 },
      { attempt: 2, count: 2, processed: 2, failed: 0 },
    ]);
    const retries = await api.database.db('screenshots').where({ batch_id: batchId, attempt: 2 }).orderBy('id').select('id', 'retry_of', 'status', 'cost');
    expect(retries.map((r) => Number(r.retry_of))).to.deep.equal(failedIds);
    // Charged again, once each, when they finished; the first attempt's errors cost nothing.
    const ledger = await api.database.db('credit_ledger').whereIn('screenshot_id', [...failedIds, ...retries.map((r) => Number(r.id))]);
    expect(ledger.map((l) => Number(l.screenshot_id)).sort()).to.deep.equal(retries.map((r) => Number(r.id)).sort());
    expect((await call(api.url, '/account/info', { key: owner.key })).body.data.balance).to.equal(balanceBefore - retries.reduce((sum, r) => sum + Number(r.cost), 0));

    // The ZIP: the entries that were there are unchanged, and the failed ones are there now, under their names.
    const after = await zip(batchId);
    expect([...after.keys()].sort()).to.deep.equal([...finishedIds, ...failedIds].map((id) => `page-${id}.png`).sort());
    for (const [name, data] of before) expect(after.get(name)?.equals(data), name).to.equal(true);

    // Nothing failed any more: nothing to retry.
    const nothing = await retry(batchId);
    expect(nothing.status).to.equal(400);
    expect(nothing.body.fields).to.have.property('id');
  });
});
