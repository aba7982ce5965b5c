import { expect } from 'chai';
import { bearer, expectEnvelope, json, outboxToken, PASSWORD, signup, uniqueEmail } from '../support/auth-helpers.js';
import { until } from '../support/wait-until.js';
import { captureLog } from '../support/log-capture.js';
import { SmtpSink } from '../support/smtp-sink.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';

const NEW_PASSWORD = 'a brand new passphrase';

describe('auth email without SMTP: log and outbox, verification and password reset', function () {
  this.timeout(60_000);
  let api: TestApi;
  let log: ReturnType<typeof captureLog>;
  const outboxCount = async (): Promise<number> => Number((await api.database.db('email_outbox').count('* as n'))[0]?.n);

  before(async () => {
    log = captureLog();
    api = await startTestApi('pglite', {}, { logger: log.logger });
  });
  after(async () => api?.stop());

  it('writes the verification email of a signup to the log and keeps it in the outbox', async () => {
    const made = await signup(api);
    const row = await api.database.db('email_outbox').where({ to_address: made.user.email }).first();
    expect(row).to.include({ purpose: 'verify_email', status: 'logged', subject: 'Confirm your email address', error: '' });
    expect(Number(row.user_id)).to.equal(made.user.id);
    const token = await outboxToken(api.database.db, made.user.email, 'verify_email');
    expect(token).to.match(/^[A-Za-z0-9_-]{43}$/);
    expect(row.body_text).to.include(`${api.plane.url}/verify-email?token=${token}`);
    expect(row.body_text).to.include('48 hours');
    // Only a hash of the token is stored with it.
    expect(JSON.stringify(await api.database.db('auth_tokens').where({ user_id: made.user.id }))).to.not.include(token);
    const line = log.lines.find((l) => l.outbox_id === Number(row.id));
    expect(line, 'a log line for the message').to.not.equal(undefined);
    expect(line).to.include({ to: made.user.email, purpose: 'verify_email' });
    expect(line?.text).to.include(token);
  });

  it('POST /auth/verify-email verifies the email with the token once; a second use is a 400 saying so', async () => {
    const made = await signup(api);
    const token = await outboxToken(api.database.db, made.user.email, 'verify_email');
    const res = await call(api.url, '/auth/verify-email', json({ token }));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, data: { ok: true } });
    expect((await call(api.url, '/auth/me', { headers: bearer(made.token) })).body.data.email_verified).to.equal(true);
    const again = expectEnvelope(await call(api.url, '/auth/verify-email', json({ token })), 400, 'VALIDATION_ERROR');
    expect(again.fields.token[0]).to.include('already been used');
  });

  it('refuses unknown, malformed and wrong-purpose tokens with 400 fields.token, changing nothing', async () => {
    const made = await signup(api);
    expect(expectEnvelope(await call(api.url, '/auth/verify-email', json({ token: 'x'.repeat(43) })), 400, 'VALIDATION_ERROR').fields.token[0]).to.include('not a valid token');
    expect(expectEnvelope(await call(api.url, '/auth/verify-email', json({})), 400, 'VALIDATION_ERROR').fields.token).to.deep.equal(['is required']);
    expect(expectEnvelope(await call(api.url, '/auth/verify-email', json({ token: 'y'.repeat(129) })), 400, 'VALIDATION_ERROR').fields).to.have.property('token');
    // A verification token does not reset a password.
    const verifyToken = await outboxToken(api.database.db, made.user.email, 'verify_email');
    const cross = expectEnvelope(await call(api.url, '/auth/reset-password', json({ token: verifyToken, password: NEW_PASSWORD })), 400, 'VALIDATION_ERROR');
    expect(cross.fields.token[0]).to.include('not a valid token');
    expect((await call(api.url, '/auth/login', json({ email: made.user.email, password: PASSWORD }))).status).to.equal(200);
    // ...and is still good for what it is for.
    expect((await call(api.url, '/auth/verify-email', json({ token: verifyToken }))).status).to.equal(200);
  });

  it('POST /auth/forgot-password answers {ok: true} whether or not the email has an account, and mails only accounts', async () => {
    const before = await outboxCount();
    const unknown = await call(api.url, '/auth/forgot-password', json({ email: uniqueEmail('nobody') }));
    expect(unknown.status).to.equal(200);
    expect(unknown.body).to.deep.equal({ success: true, data: { ok: true } });
    expect(await outboxCount()).to.equal(before);
    const made = await signup(api);
    const known = await call(api.url, '/auth/forgot-password', json({ email: made.user.email.toUpperCase() }));
    expect(known.body).to.deep.equal(unknown.body);
    const row = await api.database.db('email_outbox').where({ to_address: made.user.email, purpose: 'reset_password' }).first();
    expect(row).to.include({ status: 'logged', subject: 'Reset your password' });
    expect(row.body_text).to.include(`${api.plane.url}/reset-password?token=`);
    expect(expectEnvelope(await call(api.url, '/auth/forgot-password', json({ email: 'nope' })), 400, 'VALIDATION_ERROR').fields).to.have.property('email');
  });

  it('POST /auth/reset-password sets the new password once, ends older sessions and older reset links, and verifies the email', async () => {
    const made = await signup(api);
    const email = made.user.email;
    await call(api.url, '/auth/forgot-password', json({ email }));
    const older = await outboxToken(api.database.db, email, 'reset_password');
    await call(api.url, '/auth/forgot-password', json({ email }));
    const token = await outboxToken(api.database.db, email, 'reset_password');
    expect(token).to.not.equal(older);

    const res = await call(api.url, '/auth/reset-password', json({ token, password: NEW_PASSWORD }));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body).to.deep.equal({ success: true, data: { ok: true } });
    expectEnvelope(await call(api.url, '/auth/login', json({ email, password: PASSWORD })), 401, 'INVALID_API_KEY');
    const login = await call(api.url, '/auth/login', json({ email, password: NEW_PASSWORD }));
    expect(login.status).to.equal(200);
    expect(login.body.data.user.email_verified).to.equal(true);
    // The session from before the reset is over; the new one works; the API key is untouched.
    expectEnvelope(await call(api.url, '/auth/me', { headers: bearer(made.token) }), 401, 'INVALID_API_KEY');
    expect((await call(api.url, '/auth/me', { headers: bearer(login.body.data.token) })).status).to.equal(200);
    expect((await call(api.url, '/account/info', { key: made.api_key.key })).status).to.equal(200);

    const again = expectEnvelope(await call(api.url, '/auth/reset-password', json({ token, password: 'yet another password' })), 400, 'VALIDATION_ERROR');
    expect(again.fields.token[0]).to.include('already been used');
    expect(expectEnvelope(await call(api.url, '/auth/reset-password', json({ token: older, password: 'yet another password' })), 400, 'VALIDATION_ERROR').fields).to.have.property('token');
    expect((await call(api.url, '/auth/login', json({ email, password: NEW_PASSWORD }))).status).to.equal(200);
  });

  it('refuses a bad new password with 400 and leaves the token usable', async () => {
    const made = await signup(api);
    await call(api.url, '/auth/forgot-password', json({ email: made.user.email }));
    const token = await outboxToken(api.database.db, made.user.email, 'reset_password');
    const short = expectEnvelope(await call(api.url, '/auth/reset-password', json({ token, password: 'short' })), 400, 'VALIDATION_ERROR');
    expect(Object.keys(short.fields)).to.deep.equal(['password']);
    expect(Object.keys(expectEnvelope(await call(api.url, '/auth/reset-password', json({})), 400, 'VALIDATION_ERROR').fields).sort()).to.deep.equal(['password', 'token']);
    expect((await call(api.url, '/auth/reset-password', json({ token, password: NEW_PASSWORD }))).status).to.equal(200);
  });
});

describe('auth email tokens expire (1-second lifetimes)', function () {
  this.timeout(60_000);
  let api: TestApi;
  before(async () => {
    api = await startTestApi('pglite', { SHOTFARM_VERIFY_TOKEN_TTL_SECONDS: '1', SHOTFARM_RESET_TOKEN_TTL_SECONDS: '1' });
  });
  after(async () => api?.stop());

  it('refuses an expired verification or reset token with 400 "has expired", changing nothing', async () => {
    const made = await signup(api);
    await call(api.url, '/auth/forgot-password', json({ email: made.user.email }));
    const verifyToken = await outboxToken(api.database.db, made.user.email, 'verify_email');
    const resetToken = await outboxToken(api.database.db, made.user.email, 'reset_password');
    expect((await api.database.db('email_outbox').where({ to_address: made.user.email, purpose: 'reset_password' }).first('body_text')).body_text).to.include('1 second');
    // Past the 1-second lifetime, with a margin.
    await new Promise((r) => setTimeout(r, 1300));
    const verify = expectEnvelope(await call(api.url, '/auth/verify-email', json({ token: verifyToken })), 400, 'VALIDATION_ERROR');
    expect(verify.fields.token[0]).to.include('has expired');
    const reset = expectEnvelope(await call(api.url, '/auth/reset-password', json({ token: resetToken, password: NEW_PASSWORD })), 400, 'VALIDATION_ERROR');
    expect(reset.fields.token[0]).to.include('has expired');
    expect((await call(api.url, '/auth/me', { headers: bearer(made.token) })).body.data.email_verified).to.equal(false);
    expect((await call(api.url, '/auth/login', json({ email: made.user.email, password: PASSWORD }))).status).to.equal(200);
    // A fresh token, used in time, works.
    await call(api.url, '/auth/forgot-password', json({ email: made.user.email }));
    const fresh = await outboxToken(api.database.db, made.user.email, 'reset_password');
    expect((await call(api.url, '/auth/reset-password', json({ token: fresh, password: NEW_PASSWORD }))).status).to.equal(200);
  });
});

describe('auth email over SMTP (a local SMTP server)', function () {
  this.timeout(60_000);
  let api: TestApi;
  let sink: SmtpSink;
  const FROM = 'shotfarm test <noreply@shotfarm.test>';
  const outboxRow = (id: number, status: string): Promise<Record<string, any>> =>
    until(
      `outbox message ${id} to be ${status}`,
      async () => {
        const row = await api.database.db('email_outbox').where({ id }).first();
        return row?.status === status ? row : undefined;
      },
      10_000,
    );

  before(async () => {
    sink = await SmtpSink.start();
    api = await startTestApi('pglite', { SMTP_URL: sink.url, MAIL_FROM: FROM });
  });
  after(async () => {
    await api?.stop();
    await sink?.stop();
  });

  it('delivers the verification email of a signup, marks it sent, and its token verifies the email', async () => {
    const made = await signup(api);
    const [mail] = await sink.waitFor(1);
    expect(mail?.to).to.deep.equal([made.user.email]);
    expect(mail?.from).to.equal('noreply@shotfarm.test');
    expect(mail?.headers.subject).to.equal('Confirm your email address');
    expect(mail?.headers.from).to.include('noreply@shotfarm.test');
    const token = /^Token: (\S+)$/m.exec(mail?.text ?? '')?.[1];
    expect(token, mail?.text).to.be.a('string');
    const row = await api.database.db('email_outbox').where({ to_address: made.user.email }).first('id');
    const sent = await outboxRow(Number(row.id), 'sent');
    expect(sent.sent_at).to.be.an.instanceOf(Date);
    expect((await call(api.url, '/auth/verify-email', json({ token }))).status).to.equal(200);
    expect((await call(api.url, '/auth/me', { headers: bearer(made.token) })).body.data.email_verified).to.equal(true);
  });

  it('delivers a password reset whose link resets the password, once', async () => {
    const made = await signup(api);
    expect((await call(api.url, '/auth/forgot-password', json({ email: made.user.email }))).status).to.equal(200);
    // Waits for this very message: counting messages raced the signup's own email, which may arrive before or after.
    const reset = await until('the reset message', async () => sink.received.find((m) => m.to[0] === made.user.email && m.headers.subject === 'Reset your password'), 10_000);
    const link = new RegExp(`${api.plane.url.replace(/[.:/]/g, '\\$&')}/reset-password\\?token=(\\S+)`).exec(reset.text);
    expect(link, reset.text).to.not.equal(null);
    const token = decodeURIComponent(link?.[1] as string);
    expect((await call(api.url, '/auth/reset-password', json({ token, password: NEW_PASSWORD }))).status).to.equal(200);
    expect((await call(api.url, '/auth/login', json({ email: made.user.email, password: NEW_PASSWORD }))).status).to.equal(200);
    expectEnvelope(await call(api.url, '/auth/reset-password', json({ token, password: NEW_PASSWORD })), 400, 'VALIDATION_ERROR');
  });

  it('keeps a message the SMTP server refuses as failed, with the reason, and the request still succeeds', async () => {
    const made = await signup(api);
    await sink.waitFor(sink.received.length);
    sink.rejectRecipients = true;
    try {
      const res = await call(api.url, '/auth/forgot-password', json({ email: made.user.email }));
      expect(res.body).to.deep.equal({ success: true, data: { ok: true } });
      const row = await api.database.db('email_outbox').where({ to_address: made.user.email, purpose: 'reset_password' }).first('id');
      const failed = await outboxRow(Number(row.id), 'failed');
      expect(failed.error).to.include('550');
      expect(failed.sent_at).to.equal(null);
    } finally {
      sink.rejectRecipients = false;
    }
  });
});
