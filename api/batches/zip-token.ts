import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Tokens for a batch's `zip_url` (GET /batch/download?id=…&token=…), so a browser can fetch the archive
 * without an API key, until the token expires.
 *
 * A token is `<expires>.<mac>`: `expires` in Unix seconds (decimal), `mac` the base64url (unpadded)
 * HMAC-SHA256 under the server's secret of `batch:<id>:<expires>`. The expiry travels in the token because
 * the verifier is only given the batch id; the MAC binds it, so it cannot be changed. Both parts use only
 * URL-safe characters. The batch id and the expiry are decimal integers, so the `:`-joined text is
 * unambiguous: no two (id, expires) pairs sign the same bytes.
 */

/** A positive int64 as decimal, without leading zeros: the one spelling of a batch id that is signed. */
const BATCH_ID = /^[1-9][0-9]{0,18}$/;
/** An HMAC-SHA256 digest is 32 bytes: 43 base64url characters without padding (ceil(32 × 8 / 6)). */
const TOKEN = /^([0-9]{1,16})\.([A-Za-z0-9_-]{43})$/;

function canonicalId(batchId: number | string): string | null {
  if (typeof batchId === 'number') return Number.isSafeInteger(batchId) && batchId > 0 ? String(batchId) : null;
  return typeof batchId === 'string' && BATCH_ID.test(batchId) ? batchId : null;
}

function mac(secret: string, id: string, expires: number): string {
  return createHmac('sha256', secret).update(`batch:${id}:${expires}`).digest('base64url');
}

/**
 * The token that lets anyone holding it download batch `batchId` until `expiresAtUnix` (inclusive).
 * Throws on an empty secret, an id that is not a positive integer, or an expiry that is not a whole
 * number of seconds ≥ 0: those are programming errors, not input.
 */
export function signZipToken(secret: string, batchId: number | string, expiresAtUnix: number): string {
  if (secret.length === 0) throw new Error('signZipToken needs a secret');
  const id = canonicalId(batchId);
  if (id === null) throw new RangeError(`batch id must be a positive integer, got ${String(batchId)}`);
  if (!Number.isSafeInteger(expiresAtUnix) || expiresAtUnix < 0) throw new RangeError(`expiresAtUnix must be whole seconds ≥ 0, got ${expiresAtUnix}`);
  return `${expiresAtUnix}.${mac(secret, id, expiresAtUnix)}`;
}

/**
 * Whether `token` was signed with `secret` for this batch and has not expired at `nowUnix`. Never throws:
 * the id and the token come straight from a request. The MAC is compared in constant time, so the
 * response time does not tell an attacker how much of a forged token was right.
 */
export function verifyZipToken(secret: string, batchId: number | string, token: unknown, nowUnix: number): boolean {
  if (typeof secret !== 'string' || secret.length === 0 || typeof token !== 'string' || !Number.isFinite(nowUnix)) return false;
  const id = canonicalId(batchId);
  const parts = TOKEN.exec(token);
  if (id === null || parts === null) return false;
  const expires = Number(parts[1]);
  if (!Number.isSafeInteger(expires) || nowUnix > expires) return false;
  const expected = Buffer.from(mac(secret, id, expires), 'ascii');
  // Comparing the text (not the decoded bytes) also refuses other spellings of the same MAC: base64url's
  // last character carries 2 unused bits, so four strings decode to each digest.
  return timingSafeEqual(expected, Buffer.from(parts[2] as string, 'ascii'));
}
