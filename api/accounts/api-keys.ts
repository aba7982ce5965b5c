import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../db/connect.js';

/** `sf_` marks our keys in logs and secret scanners; 24 random bytes give 192 bits of entropy. */
export function generateApiKey(): string {
  return `sf_${randomBytes(24).toString('base64url')}`;
}

/** Keys are high-entropy random strings, so a plain SHA-256 is enough to store them safely. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export interface ApiKeyRow {
  id: number;
  company_id: number;
  user_id: number | null;
  name: string | null;
  key_prefix: string;
  /** the key's public id, in its signed links (made by the column's default: migration 015) */
  access: string;
  created_at: Date;
  revoked_at: Date | null;
}

/** Stores a key (hashed) for a company and returns its row; the key itself is never stored. */
export async function insertApiKey(db: Db, companyId: number, key: string, name: string | null, userId: number | null = null, storedSigningSecret: string | null = null): Promise<ApiKeyRow> {
  const [row] = await db('api_keys')
    .insert({ company_id: companyId, user_id: userId, name, key_hash: hashApiKey(key), key_prefix: key.slice(0, 10), signing_secret: storedSigningSecret })
    .returning(['id', 'company_id', 'user_id', 'name', 'key_prefix', 'access', 'created_at', 'revoked_at']);
  return row as ApiKeyRow;
}

/** A live key and the roles of the user it belongs to (none for an account-level key). */
export interface KeyHolder {
  key: ApiKeyRow & { last_used_at: Date | string | null };
  roles: string[];
}

/**
 * The live key row for a presented key, with its user's roles, in one query (every API request
 * authenticates: a second round trip for the roles was a tenth of a capture's database time), or null.
 */
export async function findApiKey(db: Db, key: string): Promise<KeyHolder | null> {
  if (key.length < 16 || key.length > 256) return null;
  const row = (await db('api_keys as k')
    .leftJoin('users as u', 'u.id', 'k.user_id')
    .where({ 'k.key_hash': hashApiKey(key) })
    .whereNull('k.revoked_at')
    .first('k.id', 'k.company_id', 'k.user_id', 'k.name', 'k.key_prefix', 'k.access', 'k.created_at', 'k.revoked_at', 'k.last_used_at', 'u.roles as user_roles')) as
    (KeyHolder['key'] & { user_roles: string[] | null }) | undefined;
  if (!row) return null;
  const { user_roles: roles, ...keyRow } = row;
  return { key: keyRow, roles: roles ?? [] };
}

/** A key found by its public id, revoked or not (a signed link of a revoked key is a 401, not a 403), with its stored signing secrets. */
export interface SigningKeyHolder extends KeyHolder {
  /** the secrets as stored (encrypted), current first; the previous one only while its grace period lasts */
  storedSecrets: string[];
}

/** The key whose public id is `access`, with its user's roles and its live signing secrets, in one query; or null. */
export async function findKeyByAccess(db: Db, access: string, now: Date): Promise<SigningKeyHolder | null> {
  if (access.length < 4 || access.length > 40) return null;
  const row = (await db('api_keys as k')
    .leftJoin('users as u', 'u.id', 'k.user_id')
    .where({ 'k.access': access })
    .first(
      'k.id',
      'k.company_id',
      'k.user_id',
      'k.name',
      'k.key_prefix',
      'k.access',
      'k.created_at',
      'k.revoked_at',
      'k.last_used_at',
      'k.signing_secret',
      'k.previous_signing_secret',
      'k.previous_secret_until',
      'u.roles as user_roles',
    )) as (KeyHolder['key'] & { user_roles: string[] | null; signing_secret: string | null; previous_signing_secret: string | null; previous_secret_until: Date | string | null }) | undefined;
  if (!row) return null;
  const { user_roles: roles, signing_secret: current, previous_signing_secret: previous, previous_secret_until: until, ...keyRow } = row;
  const previousLive = previous !== null && until !== null && new Date(until).getTime() > now.getTime();
  return { key: keyRow, roles: roles ?? [], storedSecrets: [current, previousLive ? previous : null].filter((s): s is string => s !== null) };
}
