import { expect } from 'chai';
import { createHmac } from 'node:crypto';
import { signZipToken, verifyZipToken } from '../../api/batches/zip-token.js';

const SECRET = 'zip-token-test-secret-0123456789';
const EXPIRES = 1_900_000_000;

describe('batch ZIP download tokens (unit)', () => {
  it('verifies its own token for the same batch until it expires, inclusive', () => {
    const token = signZipToken(SECRET, 42, EXPIRES);
    expect(verifyZipToken(SECRET, 42, token, EXPIRES - 3600)).to.equal(true);
    expect(verifyZipToken(SECRET, 42, token, EXPIRES)).to.equal(true);
    expect(verifyZipToken(SECRET, 42, token, EXPIRES + 1)).to.equal(false);
  });

  it('is URL-safe and carries its expiry', () => {
    const token = signZipToken(SECRET, 42, EXPIRES);
    expect(token).to.match(/^[0-9]+\.[A-Za-z0-9_-]{43}$/);
    expect(encodeURIComponent(token)).to.equal(token);
    expect(token.startsWith(`${EXPIRES}.`)).to.equal(true);
  });

  it('is the HMAC-SHA256 of batch:<id>:<expires>, deterministic', () => {
    const mac = createHmac('sha256', SECRET).update(`batch:42:${EXPIRES}`).digest('base64url');
    expect(signZipToken(SECRET, 42, EXPIRES)).to.equal(`${EXPIRES}.${mac}`);
    expect(signZipToken(SECRET, 42, EXPIRES)).to.equal(signZipToken(SECRET, 42, EXPIRES));
    expect(signZipToken(SECRET, 42, EXPIRES)).not.to.equal(signZipToken(SECRET, 43, EXPIRES));
    expect(signZipToken(SECRET, 42, EXPIRES)).not.to.equal(signZipToken(`${SECRET}x`, 42, EXPIRES));
  });

  it('treats a numeric id and its decimal string as the same batch', () => {
    expect(signZipToken(SECRET, '42', EXPIRES)).to.equal(signZipToken(SECRET, 42, EXPIRES));
    expect(verifyZipToken(SECRET, '42', signZipToken(SECRET, 42, EXPIRES), EXPIRES)).to.equal(true);
    expect(verifyZipToken(SECRET, '042', signZipToken(SECRET, 42, EXPIRES), EXPIRES)).to.equal(false);
  });

  it('refuses another batch, another secret, or a changed expiry', () => {
    const token = signZipToken(SECRET, 42, EXPIRES);
    const mac = token.split('.')[1] as string;
    expect(verifyZipToken(SECRET, 43, token, 0)).to.equal(false);
    expect(verifyZipToken(`${SECRET}!`, 42, token, 0)).to.equal(false);
    expect(verifyZipToken(SECRET, 42, `${EXPIRES + 86400}.${mac}`, 0)).to.equal(false);
  });

  it('refuses every single-character change of the MAC, and other spellings of the same bytes', () => {
    const token = signZipToken(SECRET, 7, EXPIRES);
    const [expires, mac] = token.split('.') as [string, string];
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    for (let i = 0; i < mac.length; i += 1) {
      const other = alphabet[(alphabet.indexOf(mac[i] as string) + 1) % alphabet.length] as string;
      const forged = `${expires}.${mac.slice(0, i)}${other}${mac.slice(i + 1)}`;
      expect(verifyZipToken(SECRET, 7, forged, 0), `position ${i}`).to.equal(false);
    }
    // The last character's two low bits are padding: flipping them keeps the decoded bytes.
    const last = alphabet.indexOf(mac[42] as string);
    const sameBytes = `${expires}.${mac.slice(0, 42)}${alphabet[last ^ 1]}`;
    expect(Buffer.from(sameBytes.split('.')[1] as string, 'base64url').equals(Buffer.from(mac, 'base64url'))).to.equal(true);
    expect(verifyZipToken(SECRET, 7, sameBytes, 0)).to.equal(false);
  });

  it('never throws on garbage, and answers false', () => {
    const garbage: unknown[] = [
      '',
      '.',
      'abc',
      `${EXPIRES}.`,
      `.${'A'.repeat(43)}`,
      `${EXPIRES}.${'A'.repeat(42)}`,
      `${EXPIRES}.${'A'.repeat(44)}`,
      `-1.${'A'.repeat(43)}`,
      `1e9.${'A'.repeat(43)}`,
      `${'9'.repeat(17)}.${'A'.repeat(43)}`,
      `${EXPIRES}.${'+'.repeat(43)}`,
      `${EXPIRES}.${'é'.repeat(43)}`,
      'x'.repeat(100_000),
      null,
      undefined,
      42,
      {},
      ['a'],
      Symbol('t'),
    ];
    for (const token of garbage) {
      expect(verifyZipToken(SECRET, 42, token, 0), String(typeof token === 'symbol' ? 'symbol' : token).slice(0, 40)).to.equal(false);
    }
    const good = signZipToken(SECRET, 42, EXPIRES);
    for (const id of [0, -42, 4.2, Number.NaN, '', 'abc', '42 ', '1e3', '99999999999999999999']) expect(verifyZipToken(SECRET, id as number, good, 0)).to.equal(false);
    expect(verifyZipToken('', 42, good, 0)).to.equal(false);
    expect(verifyZipToken(SECRET, 42, good, Number.NaN)).to.equal(false);
  });

  it('refuses to sign with an empty secret, a bad id or a bad expiry', () => {
    expect(() => signZipToken('', 42, EXPIRES)).to.throw(/secret/);
    for (const id of [0, -1, 1.5, '01', 'x']) expect(() => signZipToken(SECRET, id, EXPIRES), String(id)).to.throw(RangeError);
    for (const expires of [-1, 1.5, Number.NaN, Number.MAX_SAFE_INTEGER + 2]) expect(() => signZipToken(SECRET, 42, expires), String(expires)).to.throw(RangeError);
  });
});
