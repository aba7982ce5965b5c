import { expect } from 'chai';
import { RESPONSE_PROBE_MS, UNRESPONSIVE_PAGE } from '../../drivers/shared/page-responds.js';
import { countOwnProcesses, waitForOwnProcesses } from '../support/process-census.js';
import { call, createAndWait, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';

/**
 * Pages that never give the browser back (issue #14): a script that never yields, a memory bomb, a page
 * that grows forever. Each held the only capture slot for 111-279 s (a 30 s output timeout, retried three
 * times), then 134-142 s for a 60 s deadline (two deadline-long attempts, issue 25). Through the real
 * service (API, in-process queue, one agent with ONE chrome slot): the record ends after ONE attempt,
 * within its deadline plus the responsiveness probe and a margin, as an error in plain words that costs
 * nothing and is not retried, and the next capture on the same slot just works.
 * The time bounds are correctness bounds (a slot freed, a retry not repeated), with generous margins.
 */
describe('stuck pages: the slot is freed within the deadline and the record ends once', function () {
  this.timeout(180_000);
  const MAX_WAIT_S = 3;
  /** Per attempt: the deadline, the responsiveness probe, and room for a loaded two-core machine. */
  const ATTEMPT_BOUND_MS = MAX_WAIT_S * 1000 + RESPONSE_PROBE_MS + 6_000;
  /** One attempt (a page that stopped is not retried) and the create/wait round trips. */
  const RECORD_BOUND_MS = ATTEMPT_BOUND_MS + 5_000;
  const RENDERER = /\/usr\/lib\/chromium\/chromium .*--type=renderer/;
  let site: TestSite;
  let api: TestApi;
  let acct: TestAccount;

  before(async () => {
    site = await TestSite.start();
    // Without prepared contexts: one idle prepared page (and its renderer) is made after each capture by design
    // (drivers/playwright/prepared-contexts.ts), and this file counts renderers to see the spinning ones ended.
    api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_AGENT_SLOTS: '1', SHOTFARM_PREPARE_CONTEXTS: 'false' }, { agent: true });
    acct = await api.account(100);
  });
  after(async () => {
    await api?.stop();
    await site?.close();
  });

  /** Creates a capture and waits for its record to leave `processing`; the record and how long it took. */
  const capture = (query: string): Promise<{ record: Record<string, any>; ms: number }> => createAndWait(api.url, acct.key, query);

  /** The slot is free and the browser serves: a plain page captures, and is the only thing charged. */
  async function nextCaptureWorks(balanceBefore: number): Promise<void> {
    const { record, ms } = await capture(`url=${encodeURIComponent(site.url('/target.html'))}`);
    expect(record.status, record.error).to.equal('finished');
    expect(ms, 'the next capture waited for the slot').to.be.below(30_000);
    expect((await call(api.url, '/account/info', { key: acct.key })).body.data.balance).to.equal(balanceBefore - record.cost);
  }

  // The memory bomb stops responding, or passes the memory ceiling first (SHOTFARM_PAGE_MEMORY_LIMIT_MB,
  // 2 GB by default), depending on how fast it allocates on a busy machine: either way the page's fault.
  const ENDINGS: Record<string, Record<string, string>> = {
    'busy-loop.html': { unresponsive: UNRESPONSIVE_PAGE },
    'memory-bomb.html': { unresponsive: UNRESPONSIVE_PAGE, too_much_memory: 'The page used more than 2 GB of memory and was stopped.' },
  };
  for (const page of ['busy-loop.html', 'memory-bomb.html']) {
    it(`${page} with max_wait=${MAX_WAIT_S}: error in plain words, cost 0, after one attempt within the deadline and the probe; the next capture works`, async () => {
      const balance = (await call(api.url, '/account/info', { key: acct.key })).body.data.balance;
      const renderers = await countOwnProcesses(RENDERER, []);
      const { record, ms } = await capture(`url=${encodeURIComponent(site.url(`/${page}`))}&max_wait=${MAX_WAIT_S}`);
      expect(record.status).to.equal('error');
      expect(Object.keys(ENDINGS[page]!)).to.include(record.error_cause);
      expect(record.error).to.equal(ENDINGS[page]![record.error_cause]);
      expect(record.cost).to.equal(0);
      expect(ms, `the record took ${ms} ms`).to.be.below(RECORD_BOUND_MS);
      // The page was loaded once: a page that stopped is not retried.
      expect(site.hits(`/${page}`)).to.equal(1);
      expect(await api.database.db('credit_ledger').where({ screenshot_id: record.id })).to.have.length(0);
      // The spinning renderers were ended with their contexts, not left burning a core each.
      expect(await waitForOwnProcesses(RENDERER, [], renderers, 10_000), 'renderer processes left behind').to.be.at.most(renderers);
      await nextCaptureWorks(balance);
    });
  }

  it('an endlessly growing page, full page: ends within one attempt (cut at its max height); the next capture works', async () => {
    const balance = (await call(api.url, '/account/info', { key: acct.key })).body.data.balance;
    const { record, ms } = await capture(`url=${encodeURIComponent(site.url('/endless-growth.html'))}&max_wait=${MAX_WAIT_S}&size=page`);
    expect(record.status, record.error).to.equal('finished');
    // The page cut at its max height is shot after the deadline, a tall picture: 20.5 s end to end was seen on a VM
    // whose browsers were twice as slow as where the bound was set. One attempt, not two, is the hits count below.
    expect(ms, `the record took ${ms} ms`).to.be.below(RECORD_BOUND_MS + 10_000);
    expect(site.hits('/endless-growth.html')).to.equal(1);
    await nextCaptureWorks(balance - record.cost);
  });
});
