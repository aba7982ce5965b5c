import { expect } from 'chai';
import { generateApiKey, insertApiKey } from '../../api/accounts/api-keys.js';
import { adminUserKey } from '../support/admin-key.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';

/**
 * The API-key look-up cache on the embedded database (api/auth/key-cache.ts over PGlite): a key is read once
 * while it is cached, and every change that stops or narrows it (revoked through the API or by SQL on the same
 * database, its account deleted, its user's roles changed) is refused at the very next request. PGlite hands
 * the change's notification to the cache before the committing statement returns, so there is no window.
 */
describe('API keys cached on the embedded database, every change seen at the next request (PGlite)', function () {
  this.timeout(60_000);
  let api: TestApi;
  let keyReads = 0;

  before(async () => {
    api = await startTestApi('pglite');
    api.database.db.on('query', (q: { sql: string }) => {
      if (/from "api_keys"/i.test(q.sql) && /^select/i.test(q.sql)) keyReads++;
    });
  });
  after(async () => {
    await api?.stop();
  });

  const status = async (key: string): Promise<number> => (await call(api.url, '/account/info', { key })).status;

  it('looks a key up once while it is cached, not once per request', async () => {
    const acct = await api.account(10);
    const before = keyReads;
    for (let i = 0; i < 5; i++) expect(await status(acct.key)).to.equal(200);
    expect(keyReads - before, 'reads of api_keys').to.equal(1);
  });

  it('a key revoked through the API is refused at the next request, in every round', async () => {
    const acct = await api.account(10);
    for (let round = 0; round < 10; round++) {
      const second = generateApiKey();
      const row = await insertApiKey(api.database.db, acct.companyId, second, `round ${round}`);
      expect(await status(second)).to.equal(200);
      expect(await status(second), 'cached').to.equal(200);
      const revoked = await call(api.url, `/key/delete?id=${row.id}`, { method: 'POST', key: acct.key });
      expect(revoked.status, JSON.stringify(revoked.body)).to.equal(200);
      expect(await status(second), `round ${round}`).to.equal(401);
    }
    expect(await status(acct.key), 'the key that revoked them still works').to.equal(200);
  });

  it('a key revoked by SQL on the same database, or its account deleted, is refused', async () => {
    const acct = await api.account(10);
    expect(await status(acct.key)).to.equal(200);
    await api.database.db('api_keys').where({ company_id: acct.companyId }).update({ revoked_at: new Date() });
    expect(await status(acct.key)).to.equal(401);

    const other = await api.account(10);
    expect(await status(other.key)).to.equal(200);
    await api.database.db('companies').where({ id: other.companyId }).delete();
    expect(await status(other.key)).to.equal(401);
  });

  it("a user's roles changed are seen at the next request", async () => {
    const acct = await api.account(10);
    const { userId, key } = await adminUserKey(api.database.db, acct.companyId);
    expect((await call(api.url, '/admin/nodes', { key })).status, 'an admin').to.equal(200);
    expect((await call(api.url, '/admin/nodes', { key })).status, 'an admin, cached').to.equal(200);
    await api.database
      .db('users')
      .where({ id: userId })
      .update({ roles: JSON.stringify(['user']) });
    expect((await call(api.url, '/admin/nodes', { key })).status, 'no longer an admin').to.equal(403);
  });
});
