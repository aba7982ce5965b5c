import { expect } from 'chai';
import { NatsSandbox, NATS_URL } from '../contracts/support/nats-sandbox.js';
import { call, startTestApi, type TestApi, type TestAccount } from '../support/test-api.js';

/**
 * Fair sharing between accounts within a tier (issue 19, item 3), through the whole farm with the null
 * driver: account A's 1,000-URL batch is running when account B submits a batch of 10. B's 10 must not
 * wait behind A's backlog: accounts take turns, so B's 10 finish while A finishes about as many.
 * Counted in captures, not seconds, so a loaded machine cannot make it pass or fail.
 */
const A_URLS = 1_000;
const B_URLS = 10;
const SLOTS = 4;

async function createBatch(api: TestApi, acct: TestAccount, name: string, count: number): Promise<number> {
  const body = new FormData();
  body.append('file', new Blob([Array.from({ length: count }, (_, i) => `http://fair-share.test/${name}/${i}`).join('\n')]), 'urls.txt');
  body.append('name', name);
  body.append('browser', 'chrome');
  const res = await call(api.url, '/batch/create', { method: 'POST', key: acct.key, body });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  const batch = Array.isArray(res.body.data) ? res.body.data[0] : res.body.data;
  return Number(batch.id);
}

async function finishedOf(api: TestApi, batchId: number): Promise<number> {
  const [row] = await api.database.db('screenshots').where({ batch_id: batchId, status: 'finished' }).count('* as n');
  return Number(row?.n ?? 0);
}

async function waitUntil(what: string, ms: number, check: () => Promise<boolean>): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

for (const mode of ['nats', 'embedded'] as const) {
  describe(`fair share within the bulk tier (${mode === 'nats' ? 'JetStream queue' : 'in-process queue'}, null driver)`, function () {
    this.timeout(240_000);
    const sandbox = new NatsSandbox();
    let api: TestApi;

    before(async () => {
      api = await startTestApi(
        'postgres',
        {
          SHOTFARM_DRIVER: 'null',
          SHOTFARM_ALLOW_NULL_DRIVER: 'true',
          SHOTFARM_NULL_DRIVER_DELAY_MS: '100',
          SHOTFARM_AGENT_SLOTS: String(SLOTS),
          SHOTFARM_AGENT_BROWSERS: 'chrome',
          ...(mode === 'nats' ? { NATS_URL, SHOTFARM_NATS_PREFIX: sandbox.prefix() } : {}),
        },
        { agent: true },
      );
    });
    after(async () => {
      await api?.stop();
      if (mode === 'nats') await sandbox.deleteStreams();
    });

    it(`B's ${B_URLS} URLs submitted while A's ${A_URLS}-URL batch runs finish after about as many of A's, not after A's backlog`, async () => {
      const a = await api.account(A_URLS + 10);
      const b = await api.account(B_URLS + 10);
      const batchA = await createBatch(api, a, 'a', A_URLS);
      await waitUntil("A's batch to be under way", 60_000, async () => (await finishedOf(api, batchA)) >= 20);

      const batchB = await createBatch(api, b, 'b', B_URLS);
      // From here B's jobs are queued (the create call itself may take a while on a loaded machine).
      const aAtB = await finishedOf(api, batchA);
      await waitUntil("B's batch to finish", 120_000, async () => (await finishedOf(api, batchB)) === B_URLS);
      const aDuring = (await finishedOf(api, batchA)) - aAtB;

      // Taking turns, A finishes about one capture per capture of B (plus what was in flight when B came,
      // and a poll's worth of slack): about 10–20. First in, first out it would have finished the ~980 left.
      expect(aDuring, `A's captures finished while B's ${B_URLS} ran`).to.be.at.most(3 * B_URLS + 2 * SLOTS);
      expect(A_URLS - (await finishedOf(api, batchA)), 'A still had a backlog when B was done').to.be.above(100);
      const cancelled = await call(api.url, `/batch/cancel?id=${batchA}`, { method: 'POST', key: a.key });
      expect(cancelled.status).to.equal(200);
    });
  });
}
