import { expect } from 'chai';
import { bearer, expectEnvelope, json, PASSWORD, signup, signupAdmin, uniqueEmail, verifyEmail, type Answer } from '../support/auth-helpers.js';
import { captureLog } from '../support/log-capture.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';

/** Every admin route of part A, called the way an admin would call it. */
const ADMIN_CALLS: { path: string; init: (body: object) => RequestInit }[] = [
  { path: '/admin/users', init: () => ({}) },
  { path: '/admin/outbox', init: () => ({}) },
  { path: '/admin/impersonate', init: (body) => json(body) },
  { path: '/admin/credits', init: (body) => json(body) },
];

describe('admin: users, credits, impersonation and the outbox', function () {
  this.timeout(60_000);
  let api: TestApi;
  let log: ReturnType<typeof captureLog>;
  let admin: Awaited<ReturnType<typeof signupAdmin>>;
  let user: Awaited<ReturnType<typeof signup>>;
  const as = (token: string, init: RequestInit = {}): RequestInit => ({ ...init, headers: { ...(init.headers as Record<string, string>), ...bearer(token) } });
  const ledger = async (companyId: number): Promise<unknown[]> => api.database.db('credit_ledger').where({ company_id: companyId }).orderBy('id').select('delta', 'balance_after', 'reason');

  before(async () => {
    log = captureLog();
    api = await startTestApi('pglite', { SHOTFARM_SIGNUP_CREDITS: '100' }, { logger: log.logger });
    admin = await signupAdmin(api);
    user = await signup(api, { name: 'Plain User', company: 'Plain Co' });
    // The signup credits come with the verified email.
    await verifyEmail(api, user.user.email);
  });
  after(async () => api?.stop());

  it('answers 403 (status "error" envelope) to users, with a JWT or an API key, and changes nothing', async () => {
    const balanceBefore = await ledger(user.user.company.id);
    const outboxBefore = await api.database.db('email_outbox').count('* as n');
    const body = { user_id: admin.user.id, company_id: user.user.company.id, amount: 1000, reason: 'self-service' };
    for (const { path, init } of ADMIN_CALLS) {
      for (const [how, request] of [
        ['JWT', as(user.token, init(body))],
        ['API key', { ...init(body), key: user.api_key.key }],
      ] as const) {
        const res = expectEnvelope(await call(api.url, path, request), 403, 'FORBIDDEN');
        expect(res.status, `${path} with the user's ${how}`).to.equal('error');
        expect(res).to.not.have.property('data');
      }
    }
    // An account key that belongs to no user has no roles at all.
    const account = await api.account();
    expect((await call(api.url, '/admin/users', { key: account.key })).status).to.equal(403);
    expect(await ledger(user.user.company.id)).to.deep.equal(balanceBefore);
    expect(await api.database.db('email_outbox').count('* as n')).to.deep.equal(outboxBefore);
  });

  it('GET /admin/users lists users with their company, roles and balance, newest first, with limit, offset and an email filter', async () => {
    const res = await call(api.url, '/admin/users', as(admin.token));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const rows = res.body.data as any[];
    expect(rows.map((r) => r.id)).to.deep.equal([...rows.map((r) => r.id)].sort((a, b) => b - a));
    const listed = rows.find((r) => r.id === user.user.id);
    expect(listed).to.have.all.keys('id', 'email', 'email_verified', 'signup_provider', 'name', 'roles', 'company', 'created_at');
    expect(listed).to.deep.include({ email: user.user.email, name: 'Plain User', roles: ['user'], email_verified: true, signup_provider: 'email' });
    expect(listed.company).to.deep.equal({ id: user.user.company.id, name: 'Plain Co', email: user.user.email, balance: 100 });
    expect(rows.find((r) => r.id === admin.user.id).roles).to.deep.equal(['user', 'admin']);
    expect(JSON.stringify(rows)).to.not.include('argon2');

    const first = (await call(api.url, '/admin/users?limit=1', as(admin.token))).body.data;
    const second = (await call(api.url, '/admin/users?limit=1&offset=1', as(admin.token))).body.data;
    expect(first).to.have.length(1);
    expect(second[0].id).to.be.below(first[0].id);
    const filtered = (await call(api.url, `/admin/users?email=${encodeURIComponent(user.user.email.slice(0, 12).toUpperCase())}`, as(admin.token))).body.data;
    expect(filtered.map((r: any) => r.id)).to.deep.equal([user.user.id]);
    // LIKE wildcards are matched literally.
    expect((await call(api.url, '/admin/users?email=%25', as(admin.token))).body.data).to.deep.equal([]);
    expect(expectEnvelope(await call(api.url, '/admin/users?limit=101', as(admin.token)), 400, 'VALIDATION_ERROR').fields).to.have.property('limit');
  });

  it('POST /admin/credits grants and removes credits through the ledger, naming the admin and the reason', async () => {
    const company = user.user.company.id;
    const grant = await call(api.url, '/admin/credits', as(admin.token, json({ company_id: company, amount: 250, reason: 'goodwill for the outage' })));
    expect(grant.status, JSON.stringify(grant.body)).to.equal(200);
    expect(grant.body.data).to.deep.equal({ company_id: company, delta: 250, balance: 350, reason: `admin:${admin.user.id}: goodwill for the outage` });
    const remove = await call(api.url, '/admin/credits', { ...json({ company_id: company, amount: -50, reason: 'refund reversed' }), key: admin.api_key.key });
    expect(remove.body.data).to.include({ delta: -50, balance: 300 });
    expect((await ledger(company)).slice(-2)).to.deep.equal([
      { delta: 250, balance_after: 350, reason: `admin:${admin.user.id}: goodwill for the outage` },
      { delta: -50, balance_after: 300, reason: `admin:${admin.user.id}: refund reversed` },
    ]);
    expect((await call(api.url, '/account/info', { key: user.api_key.key })).body.data.balance).to.equal(300);
    const audit = log.lines.find((l) => l.audit === 'credits' && l.delta === 250);
    expect(audit).to.include({ admin_user_id: admin.user.id, company_id: company });
  });

  it('refuses to take a balance below zero, and other bad credit changes, with 400 and no ledger row', async () => {
    const company = user.user.company.id;
    const before = await ledger(company);
    const balance = (await call(api.url, '/account/info', { key: user.api_key.key })).body.data.balance as number;
    const below = expectEnvelope(await call(api.url, '/admin/credits', as(admin.token, json({ company_id: company, amount: -(balance + 1), reason: 'too much' }))), 400, 'VALIDATION_ERROR');
    expect(below.fields.amount[0]).to.include('below zero');
    const bad: [object, string][] = [
      [{ company_id: company, amount: 0, reason: 'nothing' }, 'amount'],
      [{ company_id: company, amount: 1.5, reason: 'half' }, 'amount'],
      [{ company_id: company, amount: 10 }, 'reason'],
      [{ company_id: company, amount: 10, reason: '   ' }, 'reason'],
      [{ company_id: company, amount: 10, reason: 'r'.repeat(151) }, 'reason'],
      [{ amount: 10, reason: 'who?' }, 'company_id'],
    ];
    for (const [body, field] of bad) {
      expect(expectEnvelope(await call(api.url, '/admin/credits', as(admin.token, json(body))), 400, 'VALIDATION_ERROR').fields, JSON.stringify(body)).to.have.property(field);
    }
    expectEnvelope(await call(api.url, '/admin/credits', as(admin.token, json({ company_id: 987654321, amount: 10, reason: 'nobody' }))), 404, 'NOT_FOUND');
    expect(await ledger(company)).to.deep.equal(before);
    // Exactly the balance may be removed.
    expect((await call(api.url, '/admin/credits', as(admin.token, json({ company_id: company, amount: -balance, reason: 'closing' })))).body.data.balance).to.equal(0);
  });

  it('POST /admin/impersonate answers the Impersonation response; the token acts as the user and /auth/me shows who impersonates', async () => {
    const res = await call(api.url, '/admin/impersonate', as(admin.token, json({ user_id: user.user.id })));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data).to.have.all.keys('token', 'user', 'impersonated_by');
    expect(res.body.data.impersonated_by).to.equal(admin.user.id);
    expect(res.body.data.user).to.deep.include({ id: user.user.id, email: user.user.email });
    const token = res.body.data.token as string;
    const claims = JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString());
    expect(claims).to.include({ sub: String(user.user.id), impersonated_by: admin.user.id });
    // The impersonation lifetime (1 hour by default), not the session's week.
    expect(claims.exp - claims.iat).to.equal(3600);

    const me = await call(api.url, '/auth/me', as(token));
    expect(me.status).to.equal(200);
    expect(me.body.data).to.include({ id: user.user.id, email: user.user.email, impersonated_by: admin.user.id });
    const info = await call(api.url, '/account/info', as(token));
    expect(info.body.data.company_id).to.equal(user.user.company.id);
    // It acts with the user's roles, not the admin's.
    expect((await call(api.url, '/admin/users', as(token))).status).to.equal(403);
  });

  it('logs every request made with an impersonation token with both user ids', async () => {
    const token = (await call(api.url, '/admin/impersonate', as(admin.token, json({ user_id: user.user.id })))).body.data.token as string;
    const issued = log.lines.filter((l) => l.audit === 'impersonation' && l.msg === 'impersonation token issued');
    expect(issued.at(-1)).to.include({ user_id: user.user.id, impersonated_by: admin.user.id });
    const seen = log.lines.length;
    const answers: Answer[] = [await call(api.url, '/auth/me', as(token)), await call(api.url, '/key/list', as(token)), await call(api.url, '/screenshot/info?id=999999', as(token))];
    expect(answers.map((a) => a.status)).to.deep.equal([200, 200, 404]);
    const audit = log.lines.slice(seen).filter((l) => l.audit === 'impersonation');
    expect(audit.map((l) => `${l.method} ${l.path} ${l.status}`)).to.deep.equal(['GET /api/v1/auth/me 200', 'GET /api/v1/key/list 200', 'GET /api/v1/screenshot/info 404']);
    for (const line of audit) {
      expect(line).to.include({ user_id: user.user.id, impersonated_by: admin.user.id, company_id: user.user.company.id });
      expect(line.request_id).to.be.a('string');
    }
    // The user's own requests are not marked as impersonated.
    const before = log.lines.length;
    await call(api.url, '/auth/me', as(user.token));
    expect(log.lines.slice(before).filter((l) => l.audit === 'impersonation')).to.deep.equal([]);
  });

  it("does not let an impersonation token mint API keys or impersonate again, nor outlive its admin's role", async () => {
    const otherAdmin = await signupAdmin(api);
    const token = (await call(api.url, '/admin/impersonate', as(admin.token, json({ user_id: otherAdmin.user.id })))).body.data.token as string;
    // Acting as an admin, it has the admin's roles, but still cannot chain or mint keys.
    expectEnvelope(await call(api.url, '/admin/impersonate', as(token, json({ user_id: user.user.id }))), 403, 'FORBIDDEN');
    expectEnvelope(await call(api.url, '/key/create', as(token, json({ name: 'backdoor' }))), 403, 'FORBIDDEN');
    expect(await api.database.db('api_keys').where({ name: 'backdoor' })).to.have.length(0);
    expect((await call(api.url, '/auth/me', as(token))).status).to.equal(200);
    // Once the impersonating admin is no longer an admin, the token stops working.
    await api.database
      .db('users')
      .where({ id: admin.user.id })
      .update({ roles: JSON.stringify(['user']) });
    try {
      expectEnvelope(await call(api.url, '/auth/me', as(token)), 401, 'INVALID_API_KEY');
    } finally {
      await api.database
        .db('users')
        .where({ id: admin.user.id })
        .update({ roles: JSON.stringify(['user', 'admin']) });
    }
    expect((await call(api.url, '/auth/me', as(token))).status).to.equal(200);
  });

  it('refuses impersonating an unknown user (404), oneself, or without user_id (400)', async () => {
    expectEnvelope(await call(api.url, '/admin/impersonate', as(admin.token, json({ user_id: 987654321 }))), 404, 'NOT_FOUND');
    expect(expectEnvelope(await call(api.url, '/admin/impersonate', as(admin.token, json({ user_id: admin.user.id }))), 400, 'VALIDATION_ERROR').fields).to.have.property('user_id');
    expect(expectEnvelope(await call(api.url, '/admin/impersonate', as(admin.token, json({}))), 400, 'VALIDATION_ERROR').fields.user_id).to.deep.equal(['is required']);
  });

  it('GET /admin/outbox shows the account email, newest first, filtered by status', async () => {
    const email = uniqueEmail('outbox');
    await signup(api, { email });
    await call(api.url, '/auth/forgot-password', json({ email }));
    const res = await call(api.url, '/admin/outbox?limit=2', as(admin.token));
    expect(res.status).to.equal(200);
    const [reset, verify] = res.body.data;
    for (const m of [reset, verify]) {
      expect(m).to.have.all.keys('id', 'user_id', 'to', 'subject', 'text', 'purpose', 'status', 'error', 'created_at', 'sent_at');
      expect(m).to.include({ to: email, status: 'logged', error: '', sent_at: null });
    }
    expect(reset).to.include({ purpose: 'reset_password', subject: 'Reset your password' });
    expect(verify).to.include({ purpose: 'verify_email' });
    expect(reset.id).to.be.above(verify.id);
    expect(reset.text).to.match(/Token: \S+/);
    expect((await call(api.url, '/admin/outbox?status=sent', as(admin.token))).body.data).to.deep.equal([]);
    expect(expectEnvelope(await call(api.url, '/admin/outbox?status=lost', as(admin.token)), 400, 'VALIDATION_ERROR').fields).to.have.property('status');
    // The admin logs in like anyone else, and keeps the role.
    const login = await call(api.url, '/auth/login', json({ email: admin.user.email, password: PASSWORD }));
    expect(login.body.data.user.roles).to.deep.equal(['user', 'admin']);
  });
});
