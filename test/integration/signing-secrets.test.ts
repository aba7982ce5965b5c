import { expect } from 'chai';
import { migrateDownTo, migrateLatest, migrateUpTo } from '../../api/db/migrate.js';
import { splitSignedQuery, signatureMatches } from '../../api/auth/signed-links.js';
import { bearer, expectEnvelope, json, signup } from '../support/auth-helpers.js';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../support/databases.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';

/** Every API key's public id and signing secret (beyond-v1.md part 2): create, list, rotate, sign for the dashboard. */
describe('API keys: access ids and signing secrets', function () {
  this.timeout(60_000);
  let api: TestApi;
  before(async () => {
    api = await startTestApi('pglite', { SHOTFARM_SIGNING_SECRET_GRACE_SECONDS: '3600' });
  });
  after(async () => api?.stop());

  it('POST /key/create answers access and signing_secret once; the secret is stored encrypted and never listed', async () => {
    const made = await signup(api);
    const created = (await call(api.url, '/key/create', json({ name: 'links' }, bearer(made.token)))).body.data;
    expect(created.access).to.match(/^ak_[0-9a-f]{32}$/);
    expect(created.signing_secret).to.match(/^ss_[A-Za-z0-9_-]{43}$/);
    expect(created.signing_secret_set).to.equal(true);
    const row = await api.database.db('api_keys').where({ id: created.id }).first();
    expect(row.signing_secret).to.match(/^enc:v1:/);
    expect(JSON.stringify(row)).to.not.include(created.signing_secret);
    const list = await call(api.url, '/key/list', { headers: bearer(made.token) });
    const listed = list.body.data.find((k: any) => k.id === created.id);
    expect(listed).to.include({ access: created.access, signing_secret_set: true });
    expect(JSON.stringify(list.body)).to.not.include(created.signing_secret);
    // The signup key has an access id and no secret until it is rotated (its answer never showed one).
    expect(list.body.data.find((k: any) => k.id !== created.id))
      .to.include({ signing_secret_set: false })
      .and.to.have.property('access')
      .that.matches(/^ak_/);
  });

  it('POST /key/rotate-signing-secret answers a new secret (id in the query or the body); the previous one signs through its grace period', async () => {
    const made = await signup(api);
    const created = (await call(api.url, '/key/create', json({ name: 'rotating' }, bearer(made.token)))).body.data;
    const res = await call(api.url, `/key/rotate-signing-secret?id=${created.id}`, { method: 'POST', key: made.api_key.key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const rotated = res.body.data;
    expect(rotated).to.have.all.keys('id', 'access', 'signing_secret', 'previous_secret_valid_until');
    expect(rotated).to.include({ id: created.id, access: created.access });
    expect(rotated.signing_secret).to.match(/^ss_/).and.not.equal(created.signing_secret);
    expect(new Date(rotated.previous_secret_valid_until).getTime()).to.be.closeTo(Date.now() + 3600_000, 60_000);
    const again = (await call(api.url, '/key/rotate-signing-secret', json({ id: created.id }, bearer(made.token)))).body.data;
    expect(again.signing_secret).to.not.equal(rotated.signing_secret);
    // The signup key had none: its first secret has no previous one.
    const signupKey = (await call(api.url, '/key/list', { headers: bearer(made.token) })).body.data.find((k: any) => k.id !== created.id);
    const first = (await call(api.url, '/key/rotate-signing-secret', json({ id: signupKey.id }, bearer(made.token)))).body.data;
    expect(first.previous_secret_valid_until).to.equal(null);
    // Another account's key, a missing id, a revoked key: 404 / 400 / 404, nothing changed.
    const intruder = await signup(api);
    const before = await api.database.db('api_keys').where({ id: created.id }).first('signing_secret');
    expectEnvelope(await call(api.url, '/key/rotate-signing-secret', json({ id: created.id }, bearer(intruder.token))), 404, 'NOT_FOUND');
    expect(expectEnvelope(await call(api.url, '/key/rotate-signing-secret', json({}, bearer(made.token))), 400, 'VALIDATION_ERROR').fields.id).to.deep.equal(['is required']);
    expect(await api.database.db('api_keys').where({ id: created.id }).first('signing_secret')).to.deep.equal(before);
    await call(api.url, '/key/delete', json({ id: created.id }, bearer(made.token)));
    expectEnvelope(await call(api.url, '/key/rotate-signing-secret', json({ id: created.id }, bearer(made.token))), 404, 'NOT_FOUND');
  });

  it('POST /key/sign-link answers a render link signed with the key’s current secret; it refuses the link’s own parameters and keys without a secret', async () => {
    const made = await signup(api);
    const created = (await call(api.url, '/key/create', json({ name: 'dashboard links' }, bearer(made.token)))).body.data;
    const res = await call(api.url, '/key/sign-link', json({ id: created.id, query: 'url=https%3A%2F%2Fexample.com%2F&width=640', expires: 1_900_000_000 }, bearer(made.token)));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const { url, access, expires } = res.body.data;
    expect({ access, expires }).to.deep.equal({ access: created.access, expires: 1_900_000_000 });
    expect(url.startsWith(`${api.url}/screenshot/render?access=${created.access}&url=https%3A%2F%2Fexample.com%2F&width=640&expires=1900000000&signature=`)).to.equal(true);
    const split = splitSignedQuery(new URL(url).search.slice(1));
    expect(split && signatureMatches(split.signed, split.signature, [created.signing_secret])).to.equal(true);
    for (const query of ['url=x&key=sf_x', 'url=x&signature=00', 'access=ak_x&url=x', 'url=x&expires=5']) {
      expect(expectEnvelope(await call(api.url, '/key/sign-link', json({ id: created.id, query }, bearer(made.token))), 400, 'VALIDATION_ERROR').fields).to.have.property('query');
    }
    const signupKey = (await call(api.url, '/key/list', { headers: bearer(made.token) })).body.data.find((k: any) => k.id !== created.id);
    expect(expectEnvelope(await call(api.url, '/key/sign-link', json({ id: signupKey.id, query: 'url=x' }, bearer(made.token))), 400, 'VALIDATION_ERROR').fields.id[0]).to.include('rotate');
    const intruder = await signup(api);
    expectEnvelope(await call(api.url, '/key/sign-link', json({ id: created.id, query: 'url=x' }, bearer(intruder.token))), 404, 'NOT_FOUND');
  });
});

for (const kind of DATABASE_KINDS)
  describe(`migration 015: access ids for existing keys (${kind})`, function () {
    this.timeout(60_000);
    let t: TestDatabase;
    before(async () => {
      t = await openTestDatabase(kind);
      await migrateUpTo(t.db, '013-blank');
    });
    after(async () => t?.drop());

    it('gives every existing key its own access id and no signing secret; down() removes the columns', async () => {
      const [company] = await t.db('companies').insert({ name: 'before 015', email: '' }).returning('id');
      const rows = [0, 1, 2].map((i) => ({ company_id: Number(company.id), name: `old ${i}`, key_hash: `${'a'.repeat(63)}${i}`, key_prefix: 'sf_old' }));
      await t.db('api_keys').insert(rows);
      await migrateLatest(t.db);
      const keys = await t.db('api_keys').select('access', 'signing_secret', 'previous_signing_secret', 'previous_secret_until');
      expect(keys).to.have.length(3);
      for (const k of keys) expect(k).to.deep.include({ signing_secret: null, previous_signing_secret: null, previous_secret_until: null });
      expect(new Set(keys.map((k) => k.access)).size).to.equal(3);
      for (const k of keys) expect(k.access).to.match(/^ak_[0-9a-f]{32}$/);
      await migrateDownTo(t.db, '013-blank');
      expect(await t.db.schema.hasColumn('api_keys', 'access')).to.equal(false);
      await migrateLatest(t.db);
    });
  });
