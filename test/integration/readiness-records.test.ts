import { expect } from 'chai';
import { DATABASE_KINDS } from '../support/databases.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';

interface Record {
  id: number;
  status: string;
  error?: string;
  error_cause?: string | null;
  cost: number;
  response_code: number | null;
  blank: boolean;
  warnings: string[];
  timings: { [phase: string]: number };
  user_agent: string;
  wait_for_hidden: string;
  fail_on_status: string[];
}

/**
 * Readiness, conditions and blank detection as the record shows them through the API (issue 28): an embedded
 * farm with a real Chromium, on both databases. A failed condition is an `error` of cause condition_failed
 * that costs nothing; a blank page is `blank: true` with a warning; each readiness option is a timings entry.
 */
for (const kind of DATABASE_KINDS) {
  describe(`readiness, conditions and blank records through the API (${kind}, chrome)`, function () {
    this.timeout(240_000);
    let site: TestSite;
    let api: TestApi;
    let account: TestAccount;
    const records = new Map<string, Record>();
    const asks: [string, string][] = [
      ['blank', '/readiness/blank.html'],
      ['fail_on_blank', '/readiness/blank.html'],
      ['fail_on_status', '/missing'],
      ['spinner', '/readiness/spinner.html?ms=1500'],
      ['wait_for not met', '/readiness/spinner.html?ms=never'],
      ['ua-gate', '/ua-gate'],
    ];
    const options: { [name: string]: string } = {
      blank: '',
      fail_on_blank: '&fail_on_blank=1',
      fail_on_status: '&fail_on_status=5xx,4xx',
      spinner: '&wait_until=load&wait_for_hidden=.spinner',
      'wait_for not met': '&wait_until=load&wait_for=%23content&max_wait=4',
      'ua-gate': '',
    };

    before(async function () {
      site = await TestSite.start();
      api = await startTestApi(kind, { SHOTFARM_AGENT_BROWSERS: 'chrome' }, { agent: true });
      account = await api.account(1000);
      const ids = new Map<string, number>();
      for (const [name, path] of asks) {
        const res = await call(api.url, `/screenshot/create?url=${encodeURIComponent(site.url(path))}&cache=0${options[name] ?? ''}`, { key: account.key });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        ids.set(name, Number(res.body.data[0].id));
      }
      for (const [name, id] of ids) {
        for (;;) {
          const res = await call(api.url, `/screenshot/info?id=${id}&wait=60`, { key: account.key });
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          if (res.body.data.status !== 'processing') {
            records.set(name, res.body.data as Record);
            break;
          }
        }
      }
    });
    after(async function () {
      await api?.stop();
      await site?.close();
    });

    const debits = async (id: number): Promise<unknown[]> => api.database.db('credit_ledger').where({ screenshot_id: id });

    it('a blank page is a finished record with blank: true and the warning', async function () {
      const record = records.get('blank')!;
      expect(record).to.include({ status: 'finished', blank: true });
      expect(record.warnings).to.include('The capture looks blank: it shows one colour.');
      expect(record.cost).to.be.greaterThan(0);
    });

    it('fail_on_blank: the record ends error, cause condition_failed, with the sentence; it costs nothing and keeps no image', async function () {
      const record = records.get('fail_on_blank')!;
      expect({ status: record.status, error: record.error, error_cause: record.error_cause, cost: record.cost }).to.deep.equal({
        status: 'error',
        error: 'fail_on_blank: the capture is blank (it shows one colour).',
        error_cause: 'condition_failed',
        cost: 0,
      });
      expect(record.blank).to.equal(true);
      expect(await debits(record.id)).to.deep.equal([]);
      expect((await call(api.url, `/screenshot/thumbnail?id=${record.id}`, { key: account.key })).status).to.equal(404);
    });

    it('fail_on_status 4xx: a 404 page ends error, cause condition_failed, cost 0; the record keeps the status and the list', async function () {
      const record = records.get('fail_on_status')!;
      expect({ status: record.status, error: record.error, error_cause: record.error_cause, cost: record.cost, response_code: record.response_code }).to.deep.equal({
        status: 'error',
        error: 'fail_on_status: the page answered with status 404 (4xx).',
        error_cause: 'condition_failed',
        cost: 0,
        response_code: 404,
      });
      expect(record.fail_on_status).to.deep.equal(['5xx', '4xx']);
      expect(await debits(record.id)).to.deep.equal([]);
    });

    it('wait_for_hidden: finished once the spinner left, a timings entry of its own, not blank', async function () {
      const record = records.get('spinner')!;
      expect(record).to.include({ status: 'finished', blank: false, wait_for_hidden: '.spinner' });
      expect(record.timings.wait_for_hidden).to.be.a('number');
      expect(record.warnings).to.deep.equal([]);
    });

    it('a wait not met is a finished record with the warning naming the selector', async function () {
      const record = records.get('wait_for not met')!;
      expect(record.status).to.equal('finished');
      expect(record.warnings.join('\n')).to.match(/^wait_for: nothing matching "#content" was visible after \d+\.\d s( \(.+\))?; captured anyway\.$/m);
    });

    it("the record's user_agent is what was sent: a person's Chrome, which the site that blocks HeadlessChrome lets in", async function () {
      const record = records.get('ua-gate')!;
      expect(record.status).to.equal('finished');
      expect(record.response_code).to.equal(200);
      expect(record.user_agent)
        .to.match(/ Chrome\/\d+\.0\.0\.0 /)
        .and.not.match(/Headless/);
    });
  });
}
