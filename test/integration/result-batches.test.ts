import { expect } from 'chai';
import type { CaptureResult } from '../../core/contracts/job-queue.js';
import { agentResult } from '../support/capture-results.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';

/** A finished result of record `id` with one stored image, as an agent publishes it. */
function finishedResult(id: number): CaptureResult {
  return agentResult(id, { files: [{ kind: 'image', shot: 1, key: `screenshots/${id}/shot-1.png`, size: 100, contentType: 'image/png' }] });
}

/** The recorder's statements that write results (ScreenshotRecords.applyResults). */
const isRecording = (sql: string): boolean => sql.includes('jsonb_to_recordset') && sql.includes('UPDATE screenshots');

for (const kind of ['pglite', 'postgres'] as const) {
  /**
   * Results handed to the recorder together are written by one statement (issue 30), with the guarantees of one
   * statement per result: a result applied once, each finished record debited once in the ledger (rows that read
   * as one debit after the other), what each held released, and a result the database refuses failing alone.
   */
  describe(`results recorded together (${kind})`, function () {
    this.timeout(60_000);
    let api: TestApi;
    let accounts: TestAccount[];

    before(async () => {
      api = await startTestApi(kind);
      accounts = [await api.account(1000), await api.account(1000)];
    });
    after(async () => {
      await api?.stop();
    });

    const create = async (account: TestAccount, n: number): Promise<number[]> => {
      const ids: number[] = [];
      for (let i = 0; i < n; i++) {
        const res = await call(api.url, `/screenshot/create?url=${encodeURIComponent(`http://example.test/${Math.random()}`)}`, { key: account.key });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        ids.push(Number(res.body.data[0].id));
      }
      return ids;
    };
    const company = async (account: TestAccount): Promise<{ balance: number; held: number }> => {
      const row = await api.database.db('companies').where({ id: account.companyId }).first('balance', 'held_credits');
      return { balance: Number(row.balance), held: Number(row.held_credits) };
    };

    it('a batch with a duplicate, a failure, an orphan and a result the database refuses: each gets what it would alone, in fewer statements', async () => {
      const [a, b] = accounts as [TestAccount, TestAccount];
      const idsA = await create(a, 5);
      const idsB = await create(b, 3);
      const [orphan] = await create(b, 1);
      expect((await call(api.url, `/screenshot/delete?id=${orphan}&scope=all`, { key: b.key })).status).to.equal(200);
      const beforeA = await company(a);
      const beforeB = await company(b);
      const [refusedId, failedId, ...finishedA] = idsA as [number, number, ...number[]];
      // node ids are at most 200 characters in the record: the database refuses this result.
      const refused = agentResult(refusedId, { node: { id: 'n'.repeat(300), host: 'localhost' } });
      const failed = agentResult(failedId, { status: 'error', error: 'The page did not answer', errorCause: 'timeout' });
      const results = [...finishedA.map(finishedResult), refused, failed, ...idsB.map(finishedResult), finishedResult(idsB[0] as number), finishedResult(orphan as number)];

      let recordings = 0;
      const count = (q: { sql: string }): void => {
        if (isRecording(q.sql)) recordings++;
      };
      api.database.db.on('query', count);
      const outcomes = await Promise.allSettled(results.map((r) => api.plane.recorder.apply(r)));
      api.database.db.off('query', count);

      const answers = outcomes.map((o) => (o.status === 'fulfilled' ? o.value : 'rejected'));
      expect(answers).to.deep.equal([...finishedA.map(() => 'applied'), 'rejected', 'applied', ...idsB.map(() => 'applied'), 'duplicate', 'orphan']);
      // The batch of the 9 distinct records (refused as a whole), each of them alone, then the duplicate's turn.
      expect(recordings).to.equal(1 + 9 + 1);

      const rows = await api.database
        .db('screenshots')
        .whereIn('id', [...idsA, ...idsB])
        .orderBy('id')
        .select('id', 'status', 'cost', 'node_id');
      const byId = new Map(rows.map((r) => [Number(r.id), r]));
      expect(byId.get(refusedId)?.status).to.equal('processing');
      expect(byId.get(failedId)?.status).to.equal('error');
      expect(Number(byId.get(failedId)?.cost)).to.equal(0);
      for (const id of [...finishedA, ...idsB]) expect(byId.get(id)?.status, `record ${id}`).to.equal('finished');
      const files = await api.database
        .db('screenshot_files')
        .whereIn('screenshot_id', [...idsA, ...idsB])
        .pluck('screenshot_id');
      expect(files.map(Number).sort((x, y) => x - y)).to.deep.equal([...finishedA, ...idsB].sort((x, y) => x - y));

      // Each finished record debited once; the rows of one account read as one debit after the other.
      for (const [account, before, finished] of [
        [a, beforeA, finishedA],
        [b, beforeB, idsB],
      ] as const) {
        const debits = await api.database
          .db('credit_ledger')
          .where({ company_id: account.companyId, reason: 'screenshot' })
          .whereIn('screenshot_id', finished)
          .orderBy('screenshot_id')
          .select('screenshot_id', 'delta', 'balance_after');
        expect(debits.map((d) => Number(d.screenshot_id))).to.deep.equal([...finished].sort((x, y) => x - y));
        let balance = before.balance;
        for (const d of debits) {
          const cost = Number(byId.get(Number(d.screenshot_id))?.cost);
          expect(Number(d.delta)).to.equal(-cost);
          balance -= cost;
          expect(Number(d.balance_after)).to.equal(balance);
        }
        const after = await company(account);
        expect(after.balance).to.equal(balance);
        // What the ended records held is released; the refused one still holds its cost until its result is recorded.
        const stillHeld = account === a ? Number(byId.get(refusedId)?.cost) : 0;
        expect(after.held).to.equal(stillHeld);
      }

      // The refused result, delivered again as the agent would have sent it, is recorded.
      expect(await api.plane.recorder.apply(finishedResult(refusedId))).to.equal('applied');
      expect((await company(a)).held).to.equal(0);
    });

    it('results handed in together are written by one statement', async () => {
      const [a] = accounts as [TestAccount];
      const ids = await create(a, 12);
      const before = await company(a);
      let recordings = 0;
      const count = (q: { sql: string }): void => {
        if (isRecording(q.sql)) recordings++;
      };
      api.database.db.on('query', count);
      const outcomes = await Promise.all(ids.map((id) => api.plane.recorder.apply(finishedResult(id))));
      api.database.db.off('query', count);
      expect(outcomes).to.deep.equal(ids.map(() => 'applied'));
      expect(recordings).to.equal(1);
      const charged = (await api.database.db('screenshots').whereIn('id', ids).pluck('cost')).reduce((sum: number, c: unknown) => sum + Number(c), 0);
      expect(await company(a)).to.deep.equal({ balance: before.balance - charged, held: before.held - charged });
      // One ledger row per record, in id order each after the one before, as twelve statements would have written them.
      const debits = await api.database.db('credit_ledger').whereIn('screenshot_id', ids).orderBy('id').select('screenshot_id', 'delta', 'balance_after');
      const costs = new Map((await api.database.db('screenshots').whereIn('id', ids).select('id', 'cost')).map((r) => [Number(r.id), Number(r.cost)]));
      expect(debits.map((d) => Number(d.screenshot_id))).to.deep.equal(ids);
      let balance = before.balance;
      for (const d of debits) {
        balance -= costs.get(Number(d.screenshot_id)) as number;
        expect([Number(d.delta), Number(d.balance_after)]).to.deep.equal([-(costs.get(Number(d.screenshot_id)) as number), balance]);
      }
    });
  });
}
