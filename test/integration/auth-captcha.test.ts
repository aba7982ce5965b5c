import { expect } from 'chai';
import { ConfigError, loadConfig } from '../../core/config/load-config.js';
import { expectEnvelope, json, outboxToken, PASSWORD, uniqueEmail } from '../support/auth-helpers.js';
import { FakeCaptcha } from '../support/fake-captcha.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';

const SECRET = 'captcha-test-secret';
const GOOD = 'the-right-captcha-answer';

describe('auth: captcha_token in production', function () {
  this.timeout(60_000);
  let api: TestApi;
  let captcha: FakeCaptcha;
  const userCount = async (): Promise<number> => Number((await api.database.db('users').count('* as n'))[0]?.n);

  before(async () => {
    captcha = await FakeCaptcha.start(SECRET, GOOD);
    api = await startTestApi('pglite', { NODE_ENV: 'production', CAPTCHA_SECRET: SECRET, CAPTCHA_VERIFY_URL: captcha.url });
    expect(api.config.production).to.equal(true);
  });
  after(async () => {
    await api?.stop();
    await captcha?.stop();
  });

  it('refuses to start in production without CAPTCHA_SECRET, naming it', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).to.throw(ConfigError, /CAPTCHA_SECRET/);
    expect(loadConfig({ NODE_ENV: 'development' }).auth.captcha.secret).to.equal(null);
  });

  it('signup without captcha_token is 400 fields.captcha_token, with the other fields, and creates nothing', async () => {
    const before = await userCount();
    const missing = expectEnvelope(await call(api.url, '/auth/signup', json({ email: uniqueEmail(), password: PASSWORD })), 400, 'VALIDATION_ERROR');
    expect(missing.fields).to.deep.equal({ captcha_token: ['is required'] });
    const all = expectEnvelope(await call(api.url, '/auth/signup', json({ email: 'bad' })), 400, 'VALIDATION_ERROR');
    expect(Object.keys(all.fields).sort()).to.deep.equal(['captcha_token', 'email', 'password']);
    expect(await userCount()).to.equal(before);
  });

  it('checks the token with the verify endpoint (secret, response, remoteip): a refused one is 400, the right one passes', async () => {
    const before = await userCount();
    const sent = captcha.requests.length;
    const refused = expectEnvelope(await call(api.url, '/auth/signup', json({ email: uniqueEmail(), password: PASSWORD, captcha_token: 'a-wrong-answer' })), 400, 'VALIDATION_ERROR');
    expect(refused.fields.captcha_token[0]).to.include('not accepted');
    expect(captcha.requests[sent]).to.deep.equal({ secret: SECRET, response: 'a-wrong-answer', remoteip: '127.0.0.1' });
    expect(await userCount()).to.equal(before);
    const ok = await call(api.url, '/auth/signup', json({ email: uniqueEmail(), password: PASSWORD, captcha_token: GOOD }));
    expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
    expect(await userCount()).to.equal(before + 1);
  });

  it('requires it for forgot-password and reset-password too, but not for login or verify-email', async () => {
    const email = uniqueEmail('flows');
    const made = await call(api.url, '/auth/signup', json({ email, password: PASSWORD, captcha_token: GOOD }));
    expect(made.status).to.equal(200);
    expect((await call(api.url, '/auth/login', json({ email, password: PASSWORD }))).status).to.equal(200);
    const verifyToken = await outboxToken(api.database.db, email, 'verify_email');
    expect((await call(api.url, '/auth/verify-email', json({ token: verifyToken }))).status).to.equal(200);

    expect(expectEnvelope(await call(api.url, '/auth/forgot-password', json({ email })), 400, 'VALIDATION_ERROR').fields).to.deep.equal({ captcha_token: ['is required'] });
    expect(expectEnvelope(await call(api.url, '/auth/forgot-password', json({ email, captcha_token: 'nope' })), 400, 'VALIDATION_ERROR').fields).to.have.property('captcha_token');
    expect(await api.database.db('email_outbox').where({ to_address: email, purpose: 'reset_password' })).to.have.length(0);
    expect((await call(api.url, '/auth/forgot-password', json({ email, captcha_token: GOOD }))).status).to.equal(200);

    const token = await outboxToken(api.database.db, email, 'reset_password');
    expect(expectEnvelope(await call(api.url, '/auth/reset-password', json({ token, password: 'new password 1' })), 400, 'VALIDATION_ERROR').fields).to.deep.equal({ captcha_token: ['is required'] });
    expect(expectEnvelope(await call(api.url, '/auth/reset-password', json({ token, password: 'new password 1', captcha_token: 'nope' })), 400, 'VALIDATION_ERROR').fields).to.have.property(
      'captcha_token',
    );
    // The refused attempts did not use the token up.
    expect((await call(api.url, '/auth/reset-password', json({ token, password: 'new password 1', captcha_token: GOOD }))).status).to.equal(200);
    expect((await call(api.url, '/auth/login', json({ email, password: 'new password 1' }))).status).to.equal(200);
  });

  it('answers 503 when the verify endpoint fails, and creates nothing', async () => {
    const before = await userCount();
    captcha.broken = true;
    try {
      expectEnvelope(await call(api.url, '/auth/signup', json({ email: uniqueEmail(), password: PASSWORD, captcha_token: GOOD })), 503, 'SERVICE_UNAVAILABLE');
    } finally {
      captcha.broken = false;
    }
    expect(await userCount()).to.equal(before);
  });
});
