import { expect } from 'chai';
import { MASK, masked, settingsInForce } from '../../core/config/settings-table.js';
import { SETTINGS } from '../../core/config/settings.js';

describe('`shotfarm settings`: the values in force (unit)', () => {
  const secrets = {
    JWT_SECRET: 'jwt-secret-jwt-secret-jwt-secret-0123',
    S3_ACCESS_KEY: 'AKIAEXAMPLEACCESS',
    S3_SECRET_KEY: 's3-secret-value-123',
    SHOTFARM_BOOTSTRAP_KEY: 'bootstrap-key-0123456789',
    SHOTFARM_SECRETS_KEY: 'ab'.repeat(32),
    CAPTCHA_SECRET: 'captcha-secret-value',
    DATABASE_URL: 'postgres://shot:db-password@db.internal/shotfarm',
    SMTP_URL: 'smtps://mailer:smtp-password@mail.example:465',
    NATS_URL: 'nats://farm:nats-password@nats.internal:4222',
    S3_ENDPOINT: 'http://minio:minio-password@minio:9000',
    SHOTFARM_PROXY_FR: 'http://fr:proxy-password@proxy-fr:3128',
  };

  it('never shows a secret, a key or the password of a URL', () => {
    const printed = settingsInForce(secrets)
      .map((s) => `${s.name}\t${s.value}`)
      .join('\n');
    for (const secret of [
      'jwt-secret',
      'AKIAEXAMPLE',
      's3-secret-value',
      'bootstrap-key-0123456789',
      'abababab',
      'captcha-secret-value',
      'db-password',
      'smtp-password',
      'nats-password',
      'minio-password',
      'proxy-password',
    ]) {
      expect(printed, secret).not.to.include(secret);
    }
  });

  it('keeps the rest of a URL readable, and says a hidden value is set', () => {
    const rows = Object.fromEntries(settingsInForce(secrets).map((s) => [s.name, s]));
    expect(rows.DATABASE_URL).to.deep.equal({ name: 'DATABASE_URL', value: `postgres://shot:${MASK}@db.internal/shotfarm`, source: 'environment' });
    expect(rows.JWT_SECRET?.value).to.equal(MASK);
    expect(rows.SHOTFARM_PROXY_FR?.value).to.include('proxy-fr:3128');
    expect(masked('nats://nats.internal:4222', 'url-password'), 'a URL without a password is shown whole').to.equal('nats://nats.internal:4222');
    expect(masked('not a url:pw', 'url-password'), 'unparsable: hidden whole').to.equal(MASK);
  });

  it("shows each variable given, else the declared default, in the table's order", () => {
    const rows = settingsInForce({ PORT: ' 9000 ', LOG_LEVEL: '' });
    expect(rows.find((r) => r.name === 'PORT')).to.deep.equal({ name: 'PORT', value: '9000', source: 'environment' });
    // Blank counts as not set, as for the loader.
    expect(rows.find((r) => r.name === 'LOG_LEVEL')).to.deep.equal({ name: 'LOG_LEVEL', value: 'info', source: 'default' });
    expect(rows.map((r) => r.name)).to.deep.equal(SETTINGS.map((s) => s.name));
  });

  it('declares every key, secret and credential-bearing URL as hidden', () => {
    for (const s of SETTINGS) {
      // A duration named after secrets (SHOTFARM_SIGNING_SECRET_GRACE_SECONDS) holds none.
      if (/SECRET|_KEY$/.test(s.name) && !/_SECONDS$/.test(s.name)) expect(s.secret, s.name).to.equal('value');
      if (/^(DATABASE|NATS|SMTP|S3_ENDPOINT|SELENIUM_GRID)_?URL$|^S3_ENDPOINT$|PROXY/.test(s.name)) expect(s.secret, s.name).to.equal('url-password');
    }
  });
});
