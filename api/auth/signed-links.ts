import { createHmac, timingSafeEqual } from 'node:crypto';
import { ApiError, fieldError, invalidApiKey } from '../../core/errors.js';
import type { Db } from '../db/connect.js';
import { findKeyByAccess } from '../accounts/api-keys.js';
import type { SigningSecrets } from '../accounts/signing-secrets.js';
import type { Caller } from '../http/state.js';

/**
 * Signed render links (beyond-v1.md part 2): `GET /screenshot/render?access=<key id>&…&expires=<unix s>&signature=<hex>`
 * stands in an `<img src>` or a CDN's origin without an API key in the URL. `signature` is the last parameter:
 * lowercase hex HMAC-SHA256, keyed with the key's signing secret (its UTF-8 text, as `openssl dgst -hmac` takes
 * it), over the exact raw query string before `&signature=`. This module owns the scheme: signing (the
 * dashboard's links, docs' recipes, tests) and verifying (the render route's credential path).
 */

/** The link's own parameters: consumed here, never seen by the render's option reader. */
export const SIGNED_LINK_PARAMS = ['access', 'expires', 'signature'] as const;

/** A signed link's `cache` when it names none: a day, so that a CDN and the record cache serve its repeats. */
export const SIGNED_LINK_CACHE_SECONDS = 86400;

const SIGNATURE_MARK = '&signature=';
/** 32 bytes of HMAC-SHA256, lowercase hex. */
const SIGNATURE_FORMAT = /^[0-9a-f]{64}$/;

export const invalidSignature = (message: string): ApiError => new ApiError(403, 'INVALID_SIGNATURE', message);
export const linkExpired = (expires: number): ApiError => new ApiError(410, 'LINK_EXPIRED', `This signed link expired at ${new Date(expires * 1000).toISOString()}: ask its owner for a new one`);

/** The lowercase hex HMAC-SHA256 of `signed` (the raw query string before `&signature=`) under `secret`. */
export function signQuery(signed: string, secret: string): string {
  return createHmac('sha256', secret).update(signed, 'utf8').digest('hex');
}

/** Whether a raw query string asks to be read as a signed link: it names `access` or `signature`. */
export function isSignedLinkQuery(raw: string): boolean {
  const names = new URLSearchParams(raw);
  return names.has('access') || names.has('signature');
}

/** The raw query string split at its last `&signature=`, or null when the signature is not the last parameter. */
export function splitSignedQuery(raw: string): { signed: string; signature: string } | null {
  const at = raw.lastIndexOf(SIGNATURE_MARK);
  if (at <= 0) return null;
  const signature = raw.slice(at + SIGNATURE_MARK.length);
  return signature.includes('&') ? null : { signed: raw.slice(0, at), signature };
}

/** Whether `signature` is the HMAC of `signed` under one of `secrets`, each compared in constant time. */
export function signatureMatches(signed: string, signature: string, secrets: readonly string[]): boolean {
  if (!SIGNATURE_FORMAT.test(signature)) return false;
  const given = Buffer.from(signature, 'hex');
  let match = false;
  // Every secret is tried, matched or not: the time does not say which one (or whether the first) matched.
  for (const secret of secrets) match = timingSafeEqual(given, Buffer.from(signQuery(signed, secret), 'hex')) || match;
  return match;
}

/** The name of a raw `name=value` piece, decoded as URLSearchParams decodes it. */
const pieceName = (piece: string): string => {
  const eq = piece.indexOf('=');
  try {
    return decodeURIComponent((eq < 0 ? piece : piece.slice(0, eq)).replace(/\+/g, ' '));
  } catch {
    return piece;
  }
};

/**
 * The render's own query of a verified link: the signed part without the link's parameters (raw pieces kept as
 * sent), with `cache` at SIGNED_LINK_CACHE_SECONDS when the link names none.
 */
export function renderQueryOf(signed: string): string {
  const pieces = signed.split('&').filter((p) => p !== '' && !(SIGNED_LINK_PARAMS as readonly string[]).includes(pieceName(p)));
  if (!pieces.some((p) => pieceName(p) === 'cache')) pieces.push(`cache=${SIGNED_LINK_CACHE_SECONDS}`);
  return pieces.join('&');
}

/** A signed query string for `params` (in their order) under `secret`: `access` first, `expires` last before the signature. */
export function buildSignedQuery(access: string, params: string, secret: string, expires?: number): string {
  const signed = [`access=${encodeURIComponent(access)}`, params, expires === undefined ? '' : `expires=${expires}`].filter((p) => p !== '').join('&');
  return `${signed}${SIGNATURE_MARK}${signQuery(signed, secret)}`;
}

/** What a verified link authenticates: the key's caller and the render's own query. */
export interface VerifiedLink {
  caller: Caller;
  /** the query the render reads (renderQueryOf) */
  query: string;
}

/**
 * Verifies the raw query of a signed link, in this order, so that nothing about a key is told to who cannot sign
 * with it: the signature (403 INVALID_SIGNATURE: missing, not last, malformed, unknown `access`, or made with
 * another secret than the key's current one or its previous one within the grace period), then the key's
 * revocation (401 INVALID_API_KEY), then `expires` (410 LINK_EXPIRED). A refused link reaches nothing.
 */
export async function verifySignedLink(db: Db, secrets: SigningSecrets, raw: string, now = new Date()): Promise<VerifiedLink> {
  const split = splitSignedQuery(raw);
  if (!split) throw invalidSignature('A signed link ends with &signature=<lowercase hex HMAC-SHA256 of the query string before it>');
  const params = new URLSearchParams(split.signed);
  const access = params.getAll('access');
  if (access.length !== 1 || !access[0]) throw invalidSignature("A signed link names its key once, with access=<the key's access id>");
  if (params.has('key')) throw fieldError('key', 'a signed link carries no API key (the signature stands for it): remove key, or send an unsigned request');
  const holder = await findKeyByAccess(db, access[0], now);
  const plain = holder ? secrets.open(holder.storedSecrets) : [];
  if (!holder || !signatureMatches(split.signed, split.signature, plain)) {
    throw invalidSignature("The link's signature does not match: sign the exact query string before &signature= with the signing secret of the key named by access");
  }
  if (holder.key.revoked_at) throw invalidApiKey('The API key of this signed link was revoked');
  const expires = params.getAll('expires');
  if (expires.length > 0) {
    if (expires.length !== 1 || !/^\d{1,12}$/.test(expires[0] as string)) throw fieldError('expires', 'must be given once, as whole unix seconds');
    const at = Number(expires[0]);
    if (at * 1000 <= now.getTime()) throw linkExpired(at);
  }
  const { key, roles } = holder;
  return {
    caller: { companyId: Number(key.company_id), apiKeyId: Number(key.id), userId: key.user_id === null ? null : Number(key.user_id), credential: `key:${key.id}`, roles },
    query: renderQueryOf(split.signed),
  };
}
