import { expect } from 'chai';
import { DATABASE_KINDS } from '../support/databases.js';
import { bearer, expectEnvelope, json, PASSWORD, signup, uniqueEmail } from '../support/auth-helpers.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';

/** The spec's User session, field by field. */
function expectUserSession(user: any, want: { email: string; name?: string | null; companyName?: string; balance?: number }): void {
  expect(user).to.have.all.keys('id', 'email', 'email_verified', 'signup_provider', 'name', 'roles', 'company');
  expect(user.id).to.be.a('number');
  expect(user).to.include({ email: want.email, email_verified: false, signup_provider: 'email', name: want.name ?? null });
  expect(user.roles).to.deep.equal(['user']);
  expect(user.company).to.have.all.keys('id', 'name', 'email', 'balance');
  expect(user.company).to.include({ email: want.email });
  expect(user.company.id).to.be.a('number');
  if (want.companyName !== undefined) expect(user.company.name).to.equal(want.companyName);
  if (want.balance !== undefined) expect(user.company.balance).to.equal(want.balance);
}

const SIGNUP_CREDITS = 50;
const MAX_FAILURES = 3;

for (const kind of DATABASE_KINDS) {
  describe(`auth: signup, login and sessions on ${kind}`, function () {
    this.timeout(120_000);
    let api: TestApi;
    const counts = async (): Promise<Record<string, number>> => {
      const db = api.database.db;
      const n = async (table: string): Promise<number> => Number((await db(table).count('* as n'))[0]?.n);
      return {
        companies: await n('companies'),
        users: await n('users'),
        api_keys: await n('api_keys'),
        auth_tokens: await n('auth_tokens'),
        email_outbox: await n('email_outbox'),
        credit_ledger: await n('credit_ledger'),
      };
    };

    before(async () => {
      api = await startTestApi(kind, { SHOTFARM_SIGNUP_CREDITS: String(SIGNUP_CREDITS), SHOTFARM_LOGIN_MAX_FAILURES: String(MAX_FAILURES) });
    });
    after(async () => api?.stop());

    it('passwords and tokens come in the JSON body only: one in the URL is a 400 naming it, and nothing is created or logged in', async () => {
      const email = uniqueEmail('in-url');
      const before = await counts();
      for (const [path, query, body] of [
        ['/auth/signup', `password=${PASSWORD}`, { email }],
        ['/auth/login', `email=${email}&password=${PASSWORD}`, {}],
        ['/auth/reset-password', 'token=abc&password=new-password-1', {}],
        ['/auth/verify-email', 'token=abc', {}],
      ] as const) {
        const res = await call(api.url, `${path}?${query}`, json(body));
        const envelope = expectEnvelope(res, 400, 'VALIDATION_ERROR');
        for (const name of new URLSearchParams(query).keys())
          expect(envelope.fields[name], `${path} ${name}`).to.deep.equal(['must be sent in the JSON request body, never in the URL (URLs are kept in logs and histories)']);
        expect(res.headers.get('set-cookie'), path).to.equal(null);
      }
      expect(await counts()).to.deep.equal(before);
      // The same fields in the body work.
      expect((await call(api.url, '/auth/signup', json({ email, password: PASSWORD }))).status).to.equal(200);
    });

    it('POST /auth/signup creates the company, its user and a first API key, and answers the Signup response', async () => {
      const email = uniqueEmail('signup');
      const res = await call(api.url, '/auth/signup', json({ email: `  ${email.toUpperCase()} `, password: PASSWORD, name: 'Ada', company: 'Analytical Engines' }));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.success).to.equal(true);
      const data = res.body.data;
      expect(data).to.have.all.keys('token', 'user', 'api_key');
      expect(data.token.split('.')).to.have.length(3);
      // No credits before the email is verified (issue 25; auth-signup-credits.test.ts grants them on verification).
      expectUserSession(data.user, { email, name: 'Ada', companyName: 'Analytical Engines', balance: 0 });
      expect(data.api_key).to.have.all.keys('key', 'name');
      expect(data.api_key.key).to.match(/^sf_/);
      expect(data.api_key.name).to.be.a('string');

      const db = api.database.db;
      const user = await db('users').where({ id: data.user.id }).first();
      expect(user.password_hash).to.match(/^\$argon2id\$/);
      expect(user.password_hash).to.not.include(PASSWORD);
      expect(await db('credit_ledger').where({ company_id: data.user.company.id }).select('delta', 'reason')).to.deep.equal([]);
      // The key is stored hashed only, and belongs to the new user.
      const key = await db('api_keys').where({ company_id: data.user.company.id }).first();
      expect(JSON.stringify(key)).to.not.include(data.api_key.key);
      expect(Number(key.user_id)).to.equal(data.user.id);

      // Both credentials work at once.
      const info = await call(api.url, '/account/info', { key: data.api_key.key });
      expect(info.status).to.equal(200);
      expect(info.body.data).to.include({ company_id: data.user.company.id, balance: 0 });
      const me = await call(api.url, '/auth/me', { headers: bearer(data.token) });
      expect(me.status).to.equal(200);
      expect(me.body.data).to.deep.equal({ ...data.user, impersonated_by: null });
    });

    it('names the account after the user, or the email, when no company is given', async () => {
      const named = await signup(api, { name: 'Grace' });
      expect(named.user.company.name).to.equal('Grace');
      const email = uniqueEmail('bare');
      const bare = await signup(api, { email });
      expect(bare.user.company.name).to.equal(email);
      expect(bare.user.name).to.equal(null);
    });

    it('refuses a second signup with the same email, in any case, with 400 fields.email, and creates nothing', async () => {
      const email = uniqueEmail('twice');
      await signup(api, { email });
      const before = await counts();
      const again = await call(api.url, '/auth/signup', json({ email: email.toUpperCase(), password: 'another password' }));
      const body = expectEnvelope(again, 400, 'VALIDATION_ERROR');
      expect(body.fields.email[0]).to.include('already registered');
      expect(await counts()).to.deep.equal(before);
    });

    it('lets only one of two simultaneous signups with one email through', async () => {
      const email = uniqueEmail('race');
      const answers = await Promise.all([0, 1].map(() => call(api.url, '/auth/signup', json({ email, password: PASSWORD }))));
      expect(answers.map((a) => a.status).sort()).to.deep.equal([200, 400]);
      expect(answers.find((a) => a.status === 400)?.body.fields).to.have.property('email');
      expect(await api.database.db('users').where({ email })).to.have.length(1);
    });

    it('refuses bad signup input with 400 and the fields named, creating nothing', async () => {
      const before = await counts();
      const cases: [unknown, string[]][] = [
        [{}, ['email', 'password']],
        [{ email: 'not-an-email', password: PASSWORD }, ['email']],
        [{ email: uniqueEmail(), password: 'short77' }, ['password']],
        [{ email: uniqueEmail(), password: 'x'.repeat(257) }, ['password']],
        [{ email: uniqueEmail(), password: PASSWORD, name: 'n'.repeat(201) }, ['name']],
        [{ email: uniqueEmail(), password: PASSWORD, company: 'bad\u0001name' }, ['company']],
        [{ email: [uniqueEmail(), uniqueEmail()], password: PASSWORD }, ['email']],
      ];
      for (const [body, fields] of cases) {
        const res = expectEnvelope(await call(api.url, '/auth/signup', json(body)), 400, 'VALIDATION_ERROR');
        expect(Object.keys(res.fields).sort(), JSON.stringify(body).slice(0, 100)).to.deep.equal(fields.sort());
      }
      expectEnvelope(await call(api.url, '/auth/signup', json(['a list'])), 400, 'VALIDATION_ERROR');
      expect(await counts()).to.deep.equal(before);
    });

    it('POST /auth/login answers the Login response for the right password', async () => {
      const email = uniqueEmail('login');
      const made = await signup(api, { email, name: 'Linus' });
      const res = await call(api.url, '/auth/login', json({ email: email.toUpperCase(), password: PASSWORD }));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.success).to.equal(true);
      expect(res.body.data).to.have.all.keys('token', 'user');
      expect(res.body.data.user).to.deep.equal(made.user);
      const me = await call(api.url, '/auth/me', { headers: bearer(res.body.data.token) });
      expect(me.body.data.id).to.equal(made.user.id);
    });

    it("answers 401 in the spec's envelope for a wrong password or an unknown email, the same way", async () => {
      const email = uniqueEmail('wrong');
      await signup(api, { email });
      const wrong = expectEnvelope(await call(api.url, '/auth/login', json({ email, password: 'not the password' })), 401, 'INVALID_API_KEY');
      const unknown = expectEnvelope(await call(api.url, '/auth/login', json({ email: uniqueEmail('nobody'), password: PASSWORD })), 401, 'INVALID_API_KEY');
      expect(wrong.error).to.equal(unknown.error);
      expect(wrong).to.not.have.property('data');
      // An account without a password (the operator's bootstrap user) cannot log in either.
      const [company] = await api.database.db('companies').insert({ name: 'no password', email: '' }).returning('id');
      const bootstrapEmail = uniqueEmail('nopassword');
      await api.database.db('users').insert({ company_id: company.id, email: bootstrapEmail, signup_provider: 'bootstrap' });
      expectEnvelope(await call(api.url, '/auth/login', json({ email: bootstrapEmail, password: PASSWORD })), 401, 'INVALID_API_KEY');
      const missing = expectEnvelope(await call(api.url, '/auth/login', json({})), 400, 'VALIDATION_ERROR');
      expect(Object.keys(missing.fields).sort()).to.deep.equal(['email', 'password']);
    });

    it('stops password guessing per account: 429 with retry_after once the failures are used up', async () => {
      const email = uniqueEmail('guess');
      await signup(api, { email });
      for (let i = 0; i < MAX_FAILURES; i++) expectEnvelope(await call(api.url, '/auth/login', json({ email, password: `guess ${i}` })), 401, 'INVALID_API_KEY');
      // Now even the right password is refused from this address, without being checked.
      const limited = expectEnvelope(await call(api.url, '/auth/login', json({ email, password: PASSWORD })), 429, 'RATE_LIMIT_EXCEEDED');
      expect(limited.retry_after)
        .to.be.a('number')
        .within(1, 15 * 60);
      // The failures are the account's: another (here: claimed) address gets no more tries (client-address-limits.test.ts).
      expect((await call(api.url, '/auth/login', json({ email, password: PASSWORD }, { 'X-Forwarded-For': '198.51.100.7' }))).status).to.equal(429);
      // A success clears the count: failures below the limit, a success, then as many failures again are all 401.
      const other = uniqueEmail('clears');
      await signup(api, { email: other });
      for (let i = 0; i < MAX_FAILURES - 1; i++) expect((await call(api.url, '/auth/login', json({ email: other, password: 'nope nope' }))).status).to.equal(401);
      expect((await call(api.url, '/auth/login', json({ email: other, password: PASSWORD }))).status).to.equal(200);
      for (let i = 0; i < MAX_FAILURES; i++) expect((await call(api.url, '/auth/login', json({ email: other, password: 'nope nope' }))).status).to.equal(401);
    });

    it("GET /auth/me answers the User session for the user's API key too, and 404 for a key without a user", async () => {
      const made = await signup(api);
      const viaKey = await call(api.url, '/auth/me', { key: made.api_key.key });
      expect(viaKey.status).to.equal(200);
      expect(viaKey.body.data).to.deep.equal({ ...made.user, impersonated_by: null });
      const account = await api.account();
      expectEnvelope(await call(api.url, '/auth/me', { key: account.key }), 404, 'NOT_FOUND');
      expectEnvelope(await call(api.url, '/auth/me'), 401, 'INVALID_API_KEY');
    });

    it('answers 401 to a tampered, re-signed or unsigned JWT', async () => {
      const victim = await signup(api);
      const attacker = await signup(api);
      const [h, p, s] = attacker.token.split('.') as [string, string, string];
      const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
      const reencode = (o: object): string => Buffer.from(JSON.stringify(o)).toString('base64url');
      const tampered = [
        // Another user and account, with the attacker's signature.
        `${h}.${reencode({ ...claims, sub: String(victim.user.id), cid: victim.user.company.id })}.${s}`,
        // Made an impersonation by an admin that does not exist.
        `${h}.${reencode({ ...claims, impersonated_by: 1 })}.${s}`,
        // A later expiry.
        `${h}.${reencode({ ...claims, exp: claims.exp + 3600 })}.${s}`,
        // The signature changed by one character.
        `${h}.${p}.${s.slice(0, -2)}${s.at(-2) === 'A' ? 'B' : 'A'}${s.at(-1)}`,
        // alg "none" and no signature.
        `${reencode({ alg: 'none', typ: 'JWT' })}.${reencode({ ...claims, sub: String(victim.user.id), cid: victim.user.company.id })}.`,
        'not.a.jwt',
      ];
      for (const token of tampered) {
        expectEnvelope(await call(api.url, '/auth/me', { headers: bearer(token) }), 401, 'INVALID_API_KEY');
        expectEnvelope(await call(api.url, '/key/list', { headers: bearer(token) }), 401, 'INVALID_API_KEY');
      }
      // The untouched token still works: the 401s came from the changes.
      expect((await call(api.url, '/auth/me', { headers: bearer(attacker.token) })).body.data.id).to.equal(attacker.user.id);
    });

    it('takes no credential on the public auth routes, and answers 405 to other methods there', async () => {
      // An API key is not needed (signup above had none) and a bad one does not get in the way.
      const res = await call(api.url, '/auth/login', { ...json({ email: uniqueEmail(), password: PASSWORD }), key: 'sf_not-a-key-not-a-key' });
      expectEnvelope(res, 401, 'INVALID_API_KEY');
      expect(res.body.error).to.equal('Invalid email or password');
      expectEnvelope(await call(api.url, '/auth/signup'), 405, 'METHOD_NOT_ALLOWED');
      expectEnvelope(await call(api.url, '/auth/me', json({})), 405, 'METHOD_NOT_ALLOWED');
    });
  });
}

describe('auth: session tokens expire after SHOTFARM_JWT_TTL_SECONDS', function () {
  this.timeout(60_000);
  let api: TestApi;
  before(async () => {
    api = await startTestApi('pglite', { SHOTFARM_JWT_TTL_SECONDS: '1' });
  });
  after(async () => api?.stop());

  it('answers 401 to a login token once its lifetime has passed', async () => {
    const made = await signup(api);
    expect((await call(api.url, '/auth/me', { headers: bearer(made.token) })).status).to.equal(200);
    const claims = JSON.parse(Buffer.from(made.token.split('.')[1] as string, 'base64url').toString());
    expect(claims.exp - claims.iat).to.equal(1);
    // JWT times are whole seconds: past exp means at least one full second after iat, plus a margin.
    await new Promise((r) => setTimeout(r, 2100));
    expectEnvelope(await call(api.url, '/auth/me', { headers: bearer(made.token) }), 401, 'INVALID_API_KEY');
    // The same credentials give a fresh token.
    const again = await call(api.url, '/auth/login', json({ email: made.user.email, password: PASSWORD }));
    expect((await call(api.url, '/auth/me', { headers: bearer(again.body.data.token) })).status).to.equal(200);
  });
});
