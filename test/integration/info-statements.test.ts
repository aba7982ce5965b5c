import { expect } from 'chai';
import type { CaptureResult } from '../../core/contracts/job-queue.js';
import { agentResult } from '../support/capture-results.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';

/** A finished result of record `id` with an image and the page's HTML, as an agent publishes it. */
function finishedResult(id: number): CaptureResult {
  return agentResult(id, {
    files: [
      { kind: 'image', shot: 1, key: `screenshots/${id}/shot-1.png`, size: 100, contentType: 'image/png' },
      { kind: 'html', shot: 1, key: `screenshots/${id}/page.html`, size: 50, contentType: 'text/html' },
    ],
  });
}

for (const kind of ['pglite', 'postgres'] as const) {
  /**
   * info answers a record, its app runs and the kinds of its files from one statement (issue 30: info?wait took
   * four per capture, of the eight a capture cost the control plane).
   */
  describe(`screenshot/info reads the record in one statement (${kind})`, function () {
    this.timeout(60_000);
    let api: TestApi;
    let account: TestAccount;
    let statements: string[] | null = null;

    before(async () => {
      api = await startTestApi(kind);
      account = await api.account(1000);
      api.database.db.on('query', (q: { sql: string }) => statements?.push(q.sql));
    });
    after(async () => {
      await api?.stop();
    });

    const create = async (): Promise<number> => {
      const res = await call(api.url, `/screenshot/create?url=${encodeURIComponent(`http://example.test/${Math.random()}`)}`, { key: account.key });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return Number(res.body.data[0].id);
    };
    /** The statements a request made that read the record or its files (the key look-up is not one). */
    const recordReads = (): string[] => (statements ?? []).filter((sql) => /^\s*select\b/i.test(sql) && /\bscreenshot(s|_files)\b/.test(sql));

    it('an ended record: one statement, with has_html and has_pdf from its files', async () => {
      const id = await create();
      expect(await api.plane.recorder.apply(finishedResult(id))).to.equal('applied');
      for (const query of [`id=${id}`, `id=${id}&wait=5`]) {
        statements = [];
        const info = await call(api.url, `/screenshot/info?${query}`, { key: account.key });
        expect(info.status, JSON.stringify(info.body)).to.equal(200);
        expect(info.body.data).to.include({ id, status: 'finished', has_html: true, has_markdown: false, has_pdf: false, has_video: false });
        expect(info.body.data.apps).to.deep.equal([]);
        expect(recordReads(), query).to.have.length(1);
      }
      statements = null;
    });

    it('a record still processing with wait: read when asked and once more when it ends', async () => {
      const id = await create();
      statements = [];
      const answered = call(api.url, `/screenshot/info?id=${id}&wait=10`, { key: account.key });
      const waiting = Date.now() + 5_000;
      while (api.plane.events.waiting(id) === 0) {
        if (Date.now() > waiting) throw new Error('info?wait did not start waiting');
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
      const beforeEnd = recordReads().length;
      expect(await api.plane.recorder.apply(finishedResult(id))).to.equal('applied');
      const info = await answered;
      expect(info.status, JSON.stringify(info.body)).to.equal(200);
      expect(info.body.data).to.include({ id, status: 'finished', has_html: true });
      const reads = recordReads();
      statements = null;
      expect(beforeEnd, 'the look before the wait').to.equal(1);
      expect(reads, 'the look before the wait and the answer').to.have.length(2);
    });

    it('another account: 404 in the envelope, nothing read beyond the one statement', async () => {
      const id = await create();
      const other = await api.account(10);
      statements = [];
      const info = await call(api.url, `/screenshot/info?id=${id}&wait=2`, { key: other.key });
      expect(info.status).to.equal(404);
      expect(info.body).to.include({ success: false, code: 'NOT_FOUND' });
      expect(recordReads()).to.have.length(1);
      statements = null;
    });
  });
}
