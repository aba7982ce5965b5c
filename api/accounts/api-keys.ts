import { createHash, randomBytes } from 'node:crypto';
import type { Db } from '../../core/db/connect.js';

/** `sf_` marks our keys in logs and secret scanners; 24 random bytes give 192 bits of entropy. */
export function generateApiKey(): string {
  return `sf_${randomBytes(24).toString('base64url')}`;
}

/** Keys are high-entropy random strings, so a plain SHA-256 is enough to store them safely. */
export function hashApiKey(key: string): string {
  return createHash('sha256').update(key).digest('hex');
}

export interface ApiKeyRow { id: number; company_id: number; user_id: number | null; name: string | null; key_prefix: string; created_at: Date; revoked_at: Date | null }

/** Stores a key (hashed) for a company and returns its row; the key itself is never stored. */
export async function insertApiKey(db: Db, companyId: number, key: string, name: string | null, userId: number | null = null): Promise<ApiKeyRow> {
  const [row] = await db('api_keys')
    .insert({ company_id: companyId, user_id: userId, name, key_hash: hashApiKey(key), key_prefix: key.slice(0, 10) })
    .returning(['id', 'company_id', 'user_id', 'name', 'key_prefix', 'created_at', 'revoked_at']);
  return row as ApiKeyRow;
}

/** The live key row for a presented key, or null. */
export async function findApiKey(db: Db, key: string): Promise<ApiKeyRow | null> {
  if (key.length < 16 || key.length > 256) return null;
  const row = await db('api_keys').where({ key_hash: hashApiKey(key) }).whereNull('revoked_at').first();
  return (row as ApiKeyRow | undefined) ?? null;
}
