import { expect } from 'chai';
import { bearer, expectEnvelope, json, PASSWORD, signup, signupAdmin, uniqueEmail } from '../support/auth-helpers.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';

const NEW_PASSWORD = 'another correct horse battery';
const MAX_FAILURES = 3;

const cookie = (session: string, admin?: string): Record<string, string> => ({ Cookie: `shotfarm_session=${session}${admin ? `; shotfarm_admin_session=${admin}` : ''}` });
const post = (headers: Record<string, string>, body: unknown = {}): RequestInit => json(body, headers);

/**
 * Issue 25, section 6: a logout ends its session on the server (the token stops working everywhere, on
 * every replica), and so does a password change (every session signed before it).
 */
for (const kind of DATABASE_KINDS) {
  describe(`logout and password change end sessions on the server (${kind})`, function () {
    this.timeout(120_000);
    let api: TestApi;
    const revokedCount = async (): Promise<number> => Number((await api.database.db('revoked_sessions').count('* as n'))[0]?.n);
    const login = async (email: string, password = PASSWORD): Promise<string> => {
      const res = await call(api.url, '/auth/login', json({ email, password }));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return res.body.data.token as string;
    };
    const meStatus = async (headers: Record<string, string>, on: TestApi = api): Promise<number> => (await call(on.url, '/auth/me', { headers })).status;

    before(async () => {
      api = await startTestApi(kind, { SHOTFARM_LOGIN_MAX_FAILURES: String(MAX_FAILURES) });
    });
    after(async () => api?.stop());

    it('POST /auth/logout with a Bearer token ends that token on every route (and on a second control plane over the same database); the user’s other sessions go on', async () => {
      const made = await signup(api);
      const token = await login(made.user.email);
      // Embedded mode is one process; with Postgres, another control plane is what an API replica is.
      const replica = kind === 'postgres' ? await startTestApi('postgres', {}, { replicaOf: api.database }) : null;
      try {
        expect(await meStatus(bearer(token))).to.equal(200);
        if (replica) expect(await meStatus(bearer(token), replica)).to.equal(200);
        const out = await call(api.url, '/auth/logout', post(bearer(token)));
        expect(out.status, JSON.stringify(out.body)).to.equal(200);
        expect(out.body).to.deep.equal({ success: true, data: { ok: true } });
        expectEnvelope(await call(api.url, '/auth/me', { headers: bearer(token) }), 401, 'INVALID_API_KEY');
        expectEnvelope(await call(api.url, '/key/list', { headers: bearer(token) }), 401, 'INVALID_API_KEY');
        if (replica) expectEnvelope(await call(replica.url, '/auth/me', { headers: bearer(token) }), 401, 'INVALID_API_KEY');
      } finally {
        await replica?.stop();
      }
      // The signup's session and the API key are other credentials: they keep working.
      expect(await meStatus(bearer(made.token))).to.equal(200);
      expect((await call(api.url, '/account/info', { key: made.api_key.key })).status).to.equal(200);
      // Kept until the token would have expired anyway.
      const row = await api.database.db('revoked_sessions').orderBy('expires_at', 'desc').first('expires_at');
      const exp = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).exp as number;
      expect(new Date(row.expires_at).getTime()).to.equal(exp * 1000);
    });

    it("the dashboard's logout ends the cookie's token: a copy kept with its CSRF proof is refused afterwards", async () => {
      const made = await signup(api);
      const token = await login(made.user.email);
      const proof = (await call(api.url, '/auth/session', { headers: cookie(token) })).body.data.csrf_token as string;
      expect(await meStatus({ ...cookie(token), 'X-CSRF-Token': proof })).to.equal(200);
      expect((await call(api.url, '/auth/logout', post(cookie(token)))).status).to.equal(200);
      expectEnvelope(await call(api.url, '/auth/me', { headers: { ...cookie(token), 'X-CSRF-Token': proof } }), 401, 'INVALID_API_KEY');
      expect((await call(api.url, '/auth/session', { headers: cookie(token) })).body.data).to.equal(null);
      expectEnvelope(await call(api.url, '/auth/me', { headers: bearer(token) }), 401, 'INVALID_API_KEY');
    });

    it("logging out while acting as a user ends the acting token and the admin's session kept aside", async () => {
      const admin = await signupAdmin(api);
      const user = await signup(api);
      const own = await login(admin.user.email);
      const proof = (await call(api.url, '/auth/session', { headers: cookie(own) })).body.data.csrf_token as string;
      const acting = await call(api.url, '/admin/impersonate', post({ ...cookie(own), 'X-CSRF-Token': proof }, { user_id: user.user.id }));
      expect(acting.status, JSON.stringify(acting.body)).to.equal(200);
      const actingToken = acting.body.data.token as string;
      expect(await meStatus(bearer(actingToken))).to.equal(200);
      expect((await call(api.url, '/auth/logout', post(cookie(actingToken, own)))).status).to.equal(200);
      expectEnvelope(await call(api.url, '/auth/me', { headers: bearer(actingToken) }), 401, 'INVALID_API_KEY');
      expectEnvelope(await call(api.url, '/auth/me', { headers: bearer(own) }), 401, 'INVALID_API_KEY');
      expect(await meStatus(bearer(admin.token))).to.equal(200);
    });

    it('logout takes anything that is no valid token without an error, and stores nothing for it', async () => {
      const before = await revokedCount();
      const made = await signup(api);
      const [h, p] = made.token.split('.') as [string, string];
      for (const headers of [{}, bearer('not-a-token'), cookie('garbage'), bearer(`${h}.${p}.${'A'.repeat(43)}`), { Authorization: 'Basic dXNlcjpwYXNz' }]) {
        const res = await call(api.url, '/auth/logout', post(headers));
        expect(res.status, JSON.stringify(headers)).to.equal(200);
      }
      expect(await revokedCount()).to.equal(before);
      expect(await meStatus(bearer(made.token))).to.equal(200);
    });

    it('POST /auth/change-password needs the current password, ends every session signed before it, and answers a new one', async () => {
      const made = await signup(api);
      const email = made.user.email as string;
      const first = await login(email);
      const second = await login(email);
      const wrong = expectEnvelope(await call(api.url, '/auth/change-password', post(bearer(first), { current_password: 'not the password', password: NEW_PASSWORD })), 400, 'VALIDATION_ERROR');
      expect(Object.keys(wrong.fields)).to.deep.equal(['current_password']);
      const bad = expectEnvelope(await call(api.url, '/auth/change-password', post(bearer(first), { current_password: PASSWORD, password: 'short' })), 400, 'VALIDATION_ERROR');
      expect(Object.keys(bad.fields)).to.deep.equal(['password']);
      expect(
        Object.keys(
          expectEnvelope(await call(api.url, `/auth/change-password?current_password=${encodeURIComponent(PASSWORD)}`, post(bearer(first), { password: NEW_PASSWORD })), 400, 'VALIDATION_ERROR')
            .fields,
        ),
      ).to.include('current_password');
      expect(await meStatus(bearer(first)), 'nothing changed by refused changes').to.equal(200);

      const changed = await call(api.url, '/auth/change-password', post(bearer(first), { current_password: PASSWORD, password: NEW_PASSWORD }));
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      expect(changed.body.data).to.have.all.keys('token', 'user');
      for (const old of [first, second, made.token]) expectEnvelope(await call(api.url, '/auth/me', { headers: bearer(old) }), 401, 'INVALID_API_KEY');
      expect(await meStatus(bearer(changed.body.data.token))).to.equal(200);
      expectEnvelope(await call(api.url, '/auth/login', json({ email, password: PASSWORD })), 401, 'INVALID_API_KEY');
      expect(await login(email, NEW_PASSWORD)).to.be.a('string');
      // API keys are not sessions: they go on.
      expect((await call(api.url, '/account/info', { key: made.api_key.key })).status).to.equal(200);
    });

    it("a cookie session's password change sets the new token as the cookie; wrong current passwords count as failed logins", async () => {
      const made = await signup(api);
      const token = await login(made.user.email);
      const proof = (await call(api.url, '/auth/session', { headers: cookie(token) })).body.data.csrf_token as string;
      const changed = await call(api.url, '/auth/change-password', post({ ...cookie(token), 'X-CSRF-Token': proof }, { current_password: PASSWORD, password: NEW_PASSWORD }));
      expect(changed.status, JSON.stringify(changed.body)).to.equal(200);
      expect(changed.headers.getSetCookie().find((c) => c.startsWith('shotfarm_session='))).to.include(`shotfarm_session=${changed.body.data.token};`);

      const fresh = changed.body.data.token as string;
      for (let i = 0; i < MAX_FAILURES; i++)
        expectEnvelope(await call(api.url, '/auth/change-password', post(bearer(fresh), { current_password: `guess ${i}`, password: PASSWORD })), 400, 'VALIDATION_ERROR');
      expectEnvelope(await call(api.url, '/auth/change-password', post(bearer(fresh), { current_password: NEW_PASSWORD, password: PASSWORD })), 429, 'RATE_LIMIT_EXCEEDED');
      expectEnvelope(await call(api.url, '/auth/login', json({ email: made.user.email, password: NEW_PASSWORD })), 429, 'RATE_LIMIT_EXCEEDED');
    });

    it('an account key without a user, and an admin acting as the user, cannot change a password (403)', async () => {
      const account = await api.account();
      expectEnvelope(await call(api.url, '/auth/change-password', { ...post({}, { current_password: PASSWORD, password: NEW_PASSWORD }), key: account.key }), 403, 'FORBIDDEN');
      const admin = await signupAdmin(api);
      const user = await signup(api, { email: uniqueEmail('acted') });
      const acting = await call(api.url, '/admin/impersonate', post(bearer(admin.token), { user_id: user.user.id }));
      expectEnvelope(await call(api.url, '/auth/change-password', post(bearer(acting.body.data.token), { current_password: PASSWORD, password: NEW_PASSWORD })), 403, 'FORBIDDEN');
      expect(await login(user.user.email)).to.be.a('string');
    });
  });
}
