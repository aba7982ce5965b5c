import { createHmac, timingSafeEqual } from 'node:crypto';

/**
 * Tokens for signed links: a URL that lets a browser (or a webhook receiver) fetch one resource without an
 * API key until the token expires. A batch's `zip_url` and a webhook's `image_url` use them.
 *
 * A token is `<expires>.<mac>`: `expires` in Unix seconds (decimal), `mac` the base64url (unpadded)
 * HMAC-SHA256 under the server's secret of `<kind>:<id>:<expires>`. The expiry travels in the token because
 * the verifier is only given the kind and the id; the MAC binds it, so it cannot be changed. Both parts use
 * only URL-safe characters. The kind is a fixed word of the code (no `:`), the id and the expiry are decimal
 * integers, so the `:`-joined text is unambiguous: no two (kind, id, expires) triples sign the same bytes,
 * and a token for one kind of resource never opens another.
 */
export type LinkKind = 'batch' | 'screenshot-image' | 'monitor-diff';

/** A positive int64 as decimal, without leading zeros: the one spelling of an id that is signed. */
const RECORD_ID = /^[1-9][0-9]{0,18}$/;
/** An HMAC-SHA256 digest is 32 bytes: 43 base64url characters without padding (ceil(32 × 8 / 6)). */
const TOKEN = /^([0-9]{1,16})\.([A-Za-z0-9_-]{43})$/;

function canonicalId(id: number | string): string | null {
  if (typeof id === 'number') return Number.isSafeInteger(id) && id > 0 ? String(id) : null;
  return typeof id === 'string' && RECORD_ID.test(id) ? id : null;
}

function mac(secret: string, kind: LinkKind, id: string, expires: number): string {
  return createHmac('sha256', secret).update(`${kind}:${id}:${expires}`).digest('base64url');
}

/**
 * The token that lets anyone holding it fetch record `id` of `kind` until `expiresAtUnix` (inclusive).
 * Throws on an empty secret, an id that is not a positive integer, or an expiry that is not a whole
 * number of seconds ≥ 0: those are programming errors, not input.
 */
export function signLinkToken(secret: string, kind: LinkKind, id: number | string, expiresAtUnix: number): string {
  if (secret.length === 0) throw new Error('signLinkToken needs a secret');
  const canonical = canonicalId(id);
  if (canonical === null) throw new RangeError(`${kind} id must be a positive integer, got ${String(id)}`);
  if (!Number.isSafeInteger(expiresAtUnix) || expiresAtUnix < 0) throw new RangeError(`expiresAtUnix must be whole seconds ≥ 0, got ${expiresAtUnix}`);
  return `${expiresAtUnix}.${mac(secret, kind, canonical, expiresAtUnix)}`;
}

/**
 * Whether `token` was signed with `secret` for this kind and id and has not expired at `nowUnix`. Never
 * throws: the id and the token come straight from a request. The MAC is compared in constant time, so the
 * response time does not tell an attacker how much of a forged token was right.
 */
export function verifyLinkToken(secret: string, kind: LinkKind, id: number | string, token: unknown, nowUnix: number): boolean {
  if (typeof secret !== 'string' || secret.length === 0 || typeof token !== 'string' || !Number.isFinite(nowUnix)) return false;
  const canonical = canonicalId(id);
  const parts = TOKEN.exec(token);
  if (canonical === null || parts === null) return false;
  const expires = Number(parts[1]);
  if (!Number.isSafeInteger(expires) || nowUnix > expires) return false;
  const expected = Buffer.from(mac(secret, kind, canonical, expires), 'ascii');
  // Comparing the text (not the decoded bytes) also refuses other spellings of the same MAC: base64url's
  // last character carries 2 unused bits, so four strings decode to each digest.
  return timingSafeEqual(expected, Buffer.from(parts[2] as string, 'ascii'));
}
