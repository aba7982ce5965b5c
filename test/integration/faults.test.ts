import fs from 'node:fs';
import path from 'node:path';
import { expect } from 'chai';
import { whileRefusingConnections } from '../support/databases.js';
import { chromiumMainPids } from '../support/process-census.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';

/**
 * Faults survived (issue 8). The browser process dies in the middle of a capture: the job is retried on
 * a fresh browser, ends exactly once, and is charged exactly once.
 */
/**
 * Each fault gets a farm of its own (embedded: API, in-process queue, one agent with one chrome slot)
 * and a local test site, started before its tests and stopped after them.
 */
function useEmbeddedFarm(kind: 'pglite' | 'postgres'): { api: TestApi; site: TestSite } {
  const farm = {} as { api: TestApi; site: TestSite };
  before(async () => {
    farm.site = await TestSite.start();
    farm.api = await startTestApi(kind, { SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_AGENT_SLOTS: '1' }, { agent: true });
  });
  after(async () => {
    await farm.api?.stop();
    await farm.site?.close();
  });
  return farm;
}

describe('faults: the browser is killed mid-capture', function () {
  this.timeout(180_000);
  const farm = useEmbeddedFarm('pglite');

  it('the job is retried on a new browser and finishes once, charged once', async () => {
    const acct = await farm.api.account(100);
    // delay=3 keeps the capture in the browser long enough to kill it there.
    const created = (await call(farm.api.url, `/screenshot/create?url=${encodeURIComponent(farm.site.url('/echo?fault=browser'))}&delay=3`, { key: acct.key })).body.data[0];
    const deadline = Date.now() + 30_000;
    while (farm.site.hits('/echo?fault=browser') === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(farm.site.hits('/echo?fault=browser'), 'the page was loaded once before the kill').to.equal(1);
    const victims = await chromiumMainPids();
    expect(victims.length).to.be.above(0);
    for (const pid of victims) process.kill(pid, 'SIGKILL');

    const info = (await call(farm.api.url, `/screenshot/info?id=${created.id}&wait=60`, { key: acct.key })).body.data;
    expect(info.status, info.error).to.equal('finished');
    // The page was loaded again by the replacement browser: the job really was retried.
    expect(farm.site.hits('/echo?fault=browser')).to.equal(2);
    const debits = await farm.api.database.db('credit_ledger').where({ screenshot_id: created.id });
    expect(debits).to.have.length(1);
    expect((await call(farm.api.url, '/account/info', { key: acct.key })).body.data.balance).to.equal(100 - info.cost);
    expect(farm.api.agent?.status().failures).to.equal(1);
    // The pool replaced the dead browser: the next capture just works.
    const next = (await call(farm.api.url, `/screenshot/create?url=${encodeURIComponent(farm.site.url('/echo?fault=after'))}`, { key: acct.key })).body.data[0];
    expect((await call(farm.api.url, `/screenshot/info?id=${next.id}&wait=60`, { key: acct.key })).body.data.status).to.equal('finished');
  });
});

describe('faults: a storage write fails', function () {
  this.timeout(180_000);
  const farm = useEmbeddedFarm('pglite');

  it('the job is retried and finishes once the storage works again, charged once', async () => {
    const acct = await farm.api.account(100);
    // A plain file where the screenshots folder must go: every write of an output fails (ENOTDIR).
    const blocker = path.join(farm.api.config.dataDir, 'objects', 'screenshots');
    fs.rmSync(blocker, { recursive: true, force: true });
    fs.writeFileSync(blocker, 'not a folder');
    const created = (await call(farm.api.url, `/screenshot/create?url=${encodeURIComponent(farm.site.url('/echo?fault=storage'))}`, { key: acct.key })).body.data[0];
    const deadline = Date.now() + 30_000;
    while ((farm.api.agent?.status().failures ?? 0) === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(farm.api.agent?.status().failures, 'the write failed').to.equal(1);
    fs.rmSync(blocker);

    const info = (await call(farm.api.url, `/screenshot/info?id=${created.id}&wait=60`, { key: acct.key })).body.data;
    expect(info.status, info.error).to.equal('finished');
    expect(farm.site.hits('/echo?fault=storage')).to.equal(2);
    expect(await farm.api.database.db('credit_ledger').where({ screenshot_id: created.id })).to.have.length(1);
    expect((await fetch(`${farm.api.url}/screenshot/thumbnail?id=${created.id}`, { headers: { 'X-API-KEY': acct.key } })).status).to.equal(200);
  });
});

describe('faults: Postgres refuses connections while a result arrives', function () {
  this.timeout(180_000);
  const farm = useEmbeddedFarm('postgres');

  it('the API answers 503 meanwhile, and the result is recorded once when the database is back', async () => {
    const acct = await farm.api.account(100);
    const created = (await call(farm.api.url, `/screenshot/create?url=${encodeURIComponent(farm.site.url('/echo?fault=db'))}&delay=2`, { key: acct.key })).body.data[0];
    const deadline = Date.now() + 30_000;
    while (farm.site.hits('/echo?fault=db') === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    // The capture is in the browser now; its result will arrive while the database is away.
    await whileRefusingConnections(farm.api.database.url as string, async () => {
      await new Promise((r) => setTimeout(r, 6_000));
      expect((await call(farm.api.url, '/account/info', { key: acct.key })).status).to.equal(503);
    });
    let status = 'processing';
    const until = Date.now() + 90_000;
    while (status === 'processing' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 500));
      status = (await farm.api.database.db('screenshots').where({ id: created.id }).first('status')).status;
    }
    expect(status).to.equal('finished');
    expect(await farm.api.database.db('credit_ledger').where({ screenshot_id: created.id })).to.have.length(1);
    expect(farm.site.hits('/echo?fault=db'), 'recorded from the first capture, not captured again').to.equal(1);
  });
});
