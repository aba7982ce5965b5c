import { createHmac, timingSafeEqual } from 'node:crypto';
import { isValidKey } from './object-key.js';

/**
 * Signed links for the filesystem store: `${baseUrl}/objects/<key>?expires=<unix s>&signature=<hex>`, where
 * the signature is HMAC-SHA256(secret, `${key}\n${expires}`). The newline cannot occur in a key (control
 * characters are refused), so no two (key, expires) pairs sign the same text. The API verifies these
 * with verifyObjectSignature before streaming the object; S3 stores use presigned URLs instead.
 */

/** Length of an HMAC-SHA256 digest in hex: 32 bytes, two hex digits each. */
const SIGNATURE_HEX_LENGTH = 64;

function sign(secret: string, key: string, expires: number): string {
  return createHmac('sha256', secret).update(`${key}\n${expires}`).digest('hex');
}

/** The path of an object under a base URL, each segment percent-encoded (the slashes stay). */
export function objectPath(key: string): string {
  return `/objects/${key.split('/').map(encodeURIComponent).join('/')}`;
}

/** A link valid for at least `ttlSeconds` (the expiry is rounded up to the next whole second). */
export function signObjectUrl(secret: string, baseUrl: string, key: string, ttlSeconds: number, now: Date): string {
  if (!Number.isFinite(ttlSeconds) || ttlSeconds <= 0) throw new RangeError(`ttlSeconds must be positive, got ${ttlSeconds}`);
  const expires = Math.ceil(now.getTime() / 1000 + ttlSeconds);
  const base = baseUrl.replace(/\/+$/, '');
  return `${base}${objectPath(key)}?expires=${expires}&signature=${sign(secret, key, expires)}`;
}

/**
 * Whether `signature` is this secret's signature of `key` until `expires` (unix seconds) and `now` is not
 * past it. Never throws: every argument may come straight from a request.
 */
export function verifyObjectSignature(secret: string, key: string, expires: number, signature: string, now: Date): boolean {
  if (!Number.isSafeInteger(expires) || now.getTime() > expires * 1000) return false;
  if (!isValidKey(key) || !/^[0-9a-f]+$/i.test(signature) || signature.length !== SIGNATURE_HEX_LENGTH) return false;
  const expected = Buffer.from(sign(secret, key, expires), 'hex');
  // Constant time, so the response time does not tell an attacker how many leading bytes were right.
  return timingSafeEqual(expected, Buffer.from(signature, 'hex'));
}
