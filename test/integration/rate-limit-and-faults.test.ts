import { expect } from 'chai';
import { DATABASE_KINDS, whileRefusingConnections } from '../support/databases.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';

for (const kind of DATABASE_KINDS) {
  describe(`rate limiting on ${kind}`, () => {
    let api: TestApi;
    before(async () => {
      api = await startTestApi(kind, { SHOTFARM_RATE_LIMIT_PER_MINUTE: '5' });
    });
    after(async () => api?.stop());

    it('answers 429 RATE_LIMIT_EXCEEDED with retry_after and Retry-After past the limit, per credential', async () => {
      const a = await api.account(100);
      const b = await api.account(100);
      for (let i = 0; i < 5; i++) expect((await call(api.url, '/account/info', { key: a.key })).status).to.equal(200);
      const limited = await call(api.url, '/account/info', { key: a.key });
      expect(limited.status).to.equal(429);
      expect(limited.body).to.include({ success: false, code: 'RATE_LIMIT_EXCEEDED' });
      expect(limited.body.retry_after).to.be.a('number').within(1, 60);
      expect(limited.headers.get('retry-after')).to.equal(String(limited.body.retry_after));
      expect(limited.body.details.request_id).to.be.a('string');
      // A limited create creates nothing.
      expect((await call(api.url, '/screenshot/create?url=a.test', { key: a.key })).status).to.equal(429);
      expect(Number((await api.database.db('screenshots').where({ company_id: a.companyId }).count('* as n'))[0]?.n)).to.equal(0);
      // Another credential has its own budget.
      expect((await call(api.url, '/account/info', { key: b.key })).status).to.equal(200);
    });
  });
}

describe('when the database is unreachable', () => {
  let api: TestApi;
  before(async () => {
    api = await startTestApi('postgres');
  });
  after(async () => api?.stop());

  it('answers 503 in the envelope without internals, readyz says so, and it recovers by itself', async () => {
    const acct = await api.account(100);
    const db = api.database.db;
    await whileRefusingConnections(api.database.url as string, async () => {
      const res = await call(api.url, '/account/info', { key: acct.key });
      expect(res.status).to.equal(503);
      expect(res.body).to.include({ success: false, code: 'SERVICE_UNAVAILABLE' });
      expect(res.body.error).to.not.match(/ECONN|pg_|terminat|allow_connections|stack/i);
      const ready = await call(api.url.replace(/\/api\/v1$/, ''), '/readyz');
      expect(ready.status).to.equal(503);
      expect(ready.body.checks.database).to.equal(false);
    });
    expect((await call(api.url, '/account/info', { key: acct.key })).status).to.equal(200);
    expect(await db.raw('select 1')).to.be.ok;
  });
});
