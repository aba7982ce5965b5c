import { expect } from 'chai';
import { generateApiKey, insertApiKey } from '../../api/accounts/api-keys.js';
import { KEY_CACHE_APPLICATION } from '../../api/auth/key-cache.js';
import { until } from '../support/wait-until.js';
import { adminUserKey } from '../support/admin-key.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';

/**
 * The API-key look-up cache (api/auth/key-cache.ts) on two api replicas over one Postgres: a key is read
 * from the database once per few seconds per replica, and a revocation made on one replica (or by SQL by
 * hand) stops the key on both at once: migration 020's trigger notifies every replica at the commit.
 */
describe('API keys cached on two replicas, revocation pushed to both at once (Postgres)', function () {
  this.timeout(120_000);
  let a: TestApi;
  let b: TestApi;
  /** statements that read api_keys, per replica's pool */
  const keyReads = { a: 0, b: 0 };

  before(async () => {
    a = await startTestApi('postgres');
    b = await startTestApi('postgres', {}, { replicaOf: a.database });
    for (const [name, api] of [
      ['a', a],
      ['b', b],
    ] as const) {
      api.database.db.on('query', (q: { sql: string }) => {
        if (/from "api_keys"/i.test(q.sql) && /^select/i.test(q.sql)) keyReads[name]++;
      });
    }
  });
  after(async () => {
    await b?.stop();
    await a?.stop();
  });

  const status = async (api: TestApi, key: string): Promise<number> => (await call(api.url, '/account/info', { key })).status;

  it('looks a key up once per replica while it is cached, not once per request', async () => {
    const acct = await a.account(10);
    const before = { ...keyReads };
    for (let i = 0; i < 5; i++) {
      expect(await status(a, acct.key)).to.equal(200);
      expect(await status(b, acct.key)).to.equal(200);
    }
    expect(keyReads.a - before.a, 'reads of api_keys on replica a').to.equal(1);
    expect(keyReads.b - before.b, 'reads of api_keys on replica b').to.equal(1);
  });

  it('a key revoked through one replica is refused by both on the very next request, in every round', async () => {
    const acct = await a.account(10);
    for (let round = 0; round < 10; round++) {
      const second = generateApiKey();
      const row = await insertApiKey(a.database.db, acct.companyId, second, `round ${round}`);
      // Both replicas hold it in their cache.
      expect(await status(a, second)).to.equal(200);
      expect(await status(b, second)).to.equal(200);
      const revoked = await call(a.url, `/key/delete?id=${row.id}`, { method: 'POST', key: acct.key });
      expect(revoked.status, JSON.stringify(revoked.body)).to.equal(200);
      expect(await status(b, second), `round ${round}: the other replica`).to.equal(401);
      expect(await status(a, second), `round ${round}: the replica that revoked it`).to.equal(401);
    }
    expect(await status(b, acct.key), 'the key that revoked them still works').to.equal(200);
  });

  it('a key revoked by SQL by hand, or its account deleted, is refused by both replicas', async () => {
    const acct = await a.account(10);
    expect(await status(a, acct.key)).to.equal(200);
    expect(await status(b, acct.key)).to.equal(200);
    await a.database.db('api_keys').where({ company_id: acct.companyId }).update({ revoked_at: new Date() });
    expect(await status(b, acct.key)).to.equal(401);
    expect(await status(a, acct.key)).to.equal(401);

    const other = await a.account(10);
    expect(await status(b, other.key)).to.equal(200);
    await a.database.db('companies').where({ id: other.companyId }).delete();
    expect(await status(b, other.key)).to.equal(401);
  });

  it("a user's roles changed are seen by both replicas at the next request", async () => {
    const acct = await a.account(10);
    const { userId, key } = await adminUserKey(a.database.db, acct.companyId);
    expect((await call(b.url, '/admin/nodes', { key })).status, 'an admin').to.equal(200);
    await a.database
      .db('users')
      .where({ id: userId })
      .update({ roles: JSON.stringify(['user']) });
    expect((await call(b.url, '/admin/nodes', { key })).status, 'no longer an admin').to.equal(403);
  });

  it('with its LISTEN connection killed, a replica asks the database (a revocation still holds at once), then listens again', async () => {
    const acct = await a.account(10);
    expect(await status(b, acct.key)).to.equal(200);
    const killed = await a.database.db.raw('select pg_terminate_backend(pid) as done from pg_stat_activity where datname = current_database() and application_name = ?', [KEY_CACHE_APPLICATION]);
    expect(killed.rows.length, 'one LISTEN connection per replica').to.equal(2);
    await a.database.db('api_keys').where({ company_id: acct.companyId }).update({ revoked_at: new Date() });
    expect(await status(b, acct.key)).to.equal(401);
    expect(await status(a, acct.key)).to.equal(401);
    // Back to one read per key once the replica listens again (it retries after a second).
    const fresh = await a.account(10);
    await until(
      'replica b caching again',
      async () => {
        expect(await status(b, fresh.key)).to.equal(200);
        const before = keyReads.b;
        for (let i = 0; i < 3; i++) expect(await status(b, fresh.key)).to.equal(200);
        return keyReads.b === before;
      },
      20_000,
    );
  });
});
