import { expect } from 'chai';
import { chromiumMainPids } from '../support/process-census.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';

/**
 * Faults survived (issue 8). The browser process dies in the middle of a capture: the job is retried on
 * a fresh browser, ends exactly once, and is charged exactly once.
 */
describe('faults: the browser is killed mid-capture', function () {
  this.timeout(180_000);
  let api: TestApi;
  let site: TestSite;
  before(async () => {
    site = await TestSite.start();
    api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_AGENT_SLOTS: '1' }, { agent: true });
  });
  after(async () => {
    await api?.stop();
    await site?.close();
  });

  it('the job is retried on a new browser and finishes once, charged once', async () => {
    const acct = await api.account(100);
    // delay=3 keeps the capture in the browser long enough to kill it there.
    const created = (await call(api.url, `/screenshot/create?url=${encodeURIComponent(site.url('/echo?fault=browser'))}&delay=3`, { key: acct.key })).body.data[0];
    const deadline = Date.now() + 30_000;
    while (site.hits('/echo?fault=browser') === 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    expect(site.hits('/echo?fault=browser'), 'the page was loaded once before the kill').to.equal(1);
    const victims = await chromiumMainPids();
    expect(victims.length).to.be.above(0);
    for (const pid of victims) process.kill(pid, 'SIGKILL');

    const info = (await call(api.url, `/screenshot/info?id=${created.id}&wait=60`, { key: acct.key })).body.data;
    expect(info.status, info.error).to.equal('finished');
    // The page was loaded again by the replacement browser: the job really was retried.
    expect(site.hits('/echo?fault=browser')).to.equal(2);
    const debits = await api.database.db('credit_ledger').where({ screenshot_id: created.id });
    expect(debits).to.have.length(1);
    expect((await call(api.url, '/account/info', { key: acct.key })).body.data.balance).to.equal(100 - info.cost);
    expect(api.agent?.status().failures).to.equal(1);
    // The pool replaced the dead browser: the next capture just works.
    const next = (await call(api.url, `/screenshot/create?url=${encodeURIComponent(site.url('/echo?fault=after'))}`, { key: acct.key })).body.data[0];
    expect((await call(api.url, `/screenshot/info?id=${next.id}&wait=60`, { key: acct.key })).body.data.status).to.equal('finished');
  });
});
