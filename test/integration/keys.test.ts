import { expect } from 'chai';
import { MAX_KEYS_PER_ACCOUNT } from '../../api/accounts/key-management.js';
import { hashApiKey } from '../../api/accounts/api-keys.js';
import { bearer, expectEnvelope, json, signup } from '../support/auth-helpers.js';
import { until } from '../support/wait-until.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';

const KEY_FIELDS = ['id', 'name', 'prefix', 'user_id', 'created_at', 'last_used_at', 'current', 'access', 'signing_secret_set'];

describe('API keys: /key/list, /key/create, /key/delete', function () {
  this.timeout(60_000);
  let api: TestApi;
  before(async () => {
    api = await startTestApi('pglite');
  });
  after(async () => api?.stop());

  it("GET /key/list shows the account's keys without their secrets", async () => {
    const made = await signup(api);
    const res = await call(api.url, '/key/list', { headers: bearer(made.token) });
    expect(res.status).to.equal(200);
    expect(res.body.success).to.equal(true);
    expect(res.body.data).to.have.length(1);
    const [key] = res.body.data;
    expect(key).to.have.all.keys(...KEY_FIELDS);
    expect(key).to.include({ name: made.api_key.name, user_id: made.user.id, last_used_at: null, current: false });
    expect(made.api_key.key.startsWith(key.prefix)).to.equal(true);
    expect(key.prefix.length).to.be.below(made.api_key.key.length / 2);
    expect(new Date(key.created_at).getTime()).to.be.closeTo(Date.now(), 60_000);
    expect(JSON.stringify(res.body)).to.not.include(made.api_key.key);
    // Used with the key itself: it is the current one, and its use is recorded.
    const viaKey = await call(api.url, '/key/list', { key: made.api_key.key });
    expect(viaKey.body.data[0].current).to.equal(true);
    // last_used_at is written beside the request (it must never slow one down), so it may land a moment later.
    const lastUsed = await until('last_used_at', async () => (await call(api.url, '/key/list', { headers: bearer(made.token) })).body.data[0].last_used_at as string | null, 10_000);
    expect(new Date(lastUsed).getTime()).to.be.closeTo(Date.now(), 60_000);
    // A key used again within the minute does not write the row again (busy keys would write it per request).
    for (let i = 0; i < 3; i++) await call(api.url, '/key/list', { key: made.api_key.key });
    await new Promise((r) => setTimeout(r, 300));
    expect((await call(api.url, '/key/list', { headers: bearer(made.token) })).body.data[0].last_used_at).to.equal(lastUsed);
  });

  it('POST /key/create returns the new secret once; the key works and the list never shows it', async () => {
    const made = await signup(api);
    const res = await call(api.url, '/key/create', json({ name: 'CI pipeline' }, bearer(made.token)));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const created = res.body.data;
    expect(created).to.have.all.keys(...KEY_FIELDS, 'key', 'signing_secret');
    expect(created).to.include({ name: 'CI pipeline', user_id: made.user.id, last_used_at: null, current: false });
    expect(created.key).to.match(/^sf_[A-Za-z0-9_-]{32}$/);
    expect(created.key.startsWith(created.prefix)).to.equal(true);
    const row = await api.database.db('api_keys').where({ id: created.id }).first();
    expect(row.key_hash).to.equal(hashApiKey(created.key));
    expect(JSON.stringify(row)).to.not.include(created.key);
    const info = await call(api.url, '/account/info', { key: created.key });
    expect(info.body.data.company_id).to.equal(made.user.company.id);
    const list = await call(api.url, '/key/list', { headers: bearer(made.token) });
    expect(list.body.data.map((k: any) => k.id)).to.deep.equal([created.id, list.body.data[1].id]);
    expect(JSON.stringify(list.body)).to.not.include(created.key);
    // A name is optional; a bad one is a 400 that creates nothing.
    expect((await call(api.url, '/key/create', json({}, bearer(made.token)))).body.data.name).to.equal(null);
    const before = await api.database.db('api_keys').where({ company_id: made.user.company.id }).count('* as n');
    expect(expectEnvelope(await call(api.url, '/key/create', json({ name: 'x'.repeat(201) }, bearer(made.token))), 400, 'VALIDATION_ERROR').fields).to.have.property('name');
    expect(await api.database.db('api_keys').where({ company_id: made.user.company.id }).count('* as n')).to.deep.equal(before);
  });

  it('POST /key/delete revokes a key at once; the key the request uses cannot delete itself (400)', async () => {
    const made = await signup(api);
    const second = (await call(api.url, '/key/create', json({ name: 'second' }, bearer(made.token)))).body.data;
    const self = expectEnvelope(await call(api.url, `/key/delete?id=${second.id}`, { method: 'POST', key: second.key }), 400, 'VALIDATION_ERROR');
    expect(self.fields.id[0]).to.include('this request is authenticated with');
    expect((await call(api.url, '/account/info', { key: second.key })).status).to.equal(200);

    const res = await call(api.url, `/key/delete?id=${second.id}`, { method: 'POST', key: made.api_key.key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, data: { id: second.id, deleted: true } });
    expectEnvelope(await call(api.url, '/account/info', { key: second.key }), 401, 'INVALID_API_KEY');
    expect((await call(api.url, '/key/list', { headers: bearer(made.token) })).body.data.map((k: any) => k.id)).to.not.include(second.id);
    // Deleting it again: it is gone (404). The id may come in a JSON body too.
    expectEnvelope(await call(api.url, '/key/delete', json({ id: second.id }, bearer(made.token))), 404, 'NOT_FOUND');
    // The dashboard session deletes the signup key as well.
    expect((await call(api.url, '/key/delete', json({ id: (await call(api.url, '/key/list', { headers: bearer(made.token) })).body.data[0].id }, bearer(made.token)))).status).to.equal(200);
    expect((await call(api.url, '/key/list', { headers: bearer(made.token) })).body.data).to.deep.equal([]);
    expect(expectEnvelope(await call(api.url, '/key/delete', json({}, bearer(made.token))), 400, 'VALIDATION_ERROR').fields.id).to.deep.equal(['is required']);
    expect(expectEnvelope(await call(api.url, '/key/delete?id=abc', { method: 'POST', headers: bearer(made.token) }), 400, 'VALIDATION_ERROR').fields).to.have.property('id');
  });

  it("answers 404 for another account's key and leaves it working", async () => {
    const owner = await signup(api);
    const intruder = await signup(api);
    const ownerKeyId = (await call(api.url, '/key/list', { key: owner.api_key.key })).body.data[0].id;
    expectEnvelope(await call(api.url, `/key/delete?id=${ownerKeyId}`, { method: 'POST', headers: bearer(intruder.token) }), 404, 'NOT_FOUND');
    expectEnvelope(await call(api.url, `/key/delete?id=${ownerKeyId}`, { method: 'POST', key: intruder.api_key.key }), 404, 'NOT_FOUND');
    expect((await call(api.url, '/key/list', { key: intruder.api_key.key })).body.data.map((k: any) => k.id)).to.not.include(ownerKeyId);
    expect((await call(api.url, '/account/info', { key: owner.api_key.key })).status).to.equal(200);
  });

  it(`refuses more than ${MAX_KEYS_PER_ACCOUNT} live keys per account`, async () => {
    const made = await signup(api);
    const rows = Array.from({ length: MAX_KEYS_PER_ACCOUNT - 1 }, (_, i) => ({
      company_id: made.user.company.id,
      name: `bulk ${i}`,
      key_hash: `${'0'.repeat(56)}${String(made.user.id).padStart(4, '0')}${String(i).padStart(4, '0')}`,
      key_prefix: 'sf_bulk',
    }));
    await api.database.db('api_keys').insert(rows);
    const full = expectEnvelope(await call(api.url, '/key/create', json({ name: 'one too many' }, bearer(made.token))), 400, 'VALIDATION_ERROR');
    expect(full.fields.name[0]).to.include(String(MAX_KEYS_PER_ACCOUNT));
    await api.database.db('api_keys').where({ company_id: made.user.company.id, name: 'bulk 0' }).update({ revoked_at: new Date() });
    expect((await call(api.url, '/key/create', json({ name: 'fits again' }, bearer(made.token)))).status).to.equal(200);
  });
});
