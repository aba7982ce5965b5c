import { expect } from 'chai';
import type { CaptureResult } from '../../core/contracts/job-queue.js';
import { agentResult } from '../support/capture-results.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';

/** Records of one account whose results arrive at the same moment: what a busy farm does all day. */
const RECORDS = 24;

/** A finished result of record `id` with one stored image, as an agent publishes it. */
function finishedResult(id: number): CaptureResult {
  return agentResult(id, { files: [{ kind: 'image', shot: 1, key: `screenshots/${id}/shot-1.png`, size: 100, contentType: 'image/png' }] });
}

/**
 * The recorder on Postgres (many connections): results of one account applied concurrently. Each result's
 * transaction inserts rows that reference the account (files, ledger: a KEY SHARE lock on its row through the
 * foreign key) and then takes the account's row to change its balance; a lock that conflicts with KEY SHARE
 * there made two such transactions wait on each other, and Postgres killed one ("deadlock detected"). The
 * result then waited for a redelivery: seconds of delay under load.
 */
describe('results of one account recorded at the same moment (Postgres)', function () {
  this.timeout(60_000);
  let api: TestApi;
  let account: TestAccount;

  before(async () => {
    api = await startTestApi('postgres');
    account = await api.account(1000);
  });
  after(async () => {
    await api?.stop();
  });

  it('every result is applied at the first attempt and charged once, while new captures are created', async () => {
    const ids: number[] = [];
    for (let i = 0; i < RECORDS; i++) {
      const res = await call(api.url, `/screenshot/create?url=${encodeURIComponent(`http://example.test/${i}`)}`, { key: account.key });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      ids.push(Number(res.body.data[0].id));
    }
    const before = Number((await api.database.db('companies').where({ id: account.companyId }).first('balance')).balance);
    // Creates lock the same account row: they run meanwhile, as clients keep asking while results arrive.
    const creating = Array.from({ length: 6 }, (_, i) => call(api.url, `/screenshot/create?url=${encodeURIComponent(`http://example.test/more-${i}`)}`, { key: account.key }));
    const outcomes = await Promise.all(ids.map((id) => api.plane.recorder.apply(finishedResult(id))));
    expect(outcomes).to.deep.equal(ids.map(() => 'applied'));
    for (const created of await Promise.all(creating)) expect(created.status).to.equal(200);
    const rows = await api.database.db('screenshots').whereIn('id', ids).select('status', 'cost');
    expect(rows.map((r) => r.status)).to.deep.equal(ids.map(() => 'finished'));
    const debits = await api.database.db('credit_ledger').whereIn('screenshot_id', ids).select('delta');
    expect(debits).to.have.length(RECORDS);
    const charged = rows.reduce((sum, r) => sum + Number(r.cost), 0);
    const after = Number((await api.database.db('companies').where({ id: account.companyId }).first('balance')).balance);
    expect(before - after).to.equal(charged);
  });
});
