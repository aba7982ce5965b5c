import type { Db } from '../db/connect.js';
import { fieldError, forbidden, notFound } from '../../core/errors.js';
import type { Caller } from '../http/state.js';
import { generateApiKey, insertApiKey } from './api-keys.js';
import { lockCompany } from './lock-company.js';
import type { SigningSecrets } from './signing-secrets.js';

/** An API key as the account sees it: never the secret, only its first characters to recognise it. */
export interface ApiKeyInfo {
  id: number;
  name: string | null;
  prefix: string;
  user_id: number | null;
  created_at: string;
  last_used_at: string | null;
  current: boolean;
  access: string;
  signing_secret_set: boolean;
}

/**
 * 100 live keys per account: far more than one key per integration needs, and a bound on what a leaked
 * credential can mint.
 */
export const MAX_KEYS_PER_ACCOUNT = 100;

const iso = (v: unknown): string | null => (v === null || v === undefined ? null : new Date(v as string).toISOString());

function toInfo(row: Record<string, unknown>, caller: Caller): ApiKeyInfo {
  return {
    id: Number(row.id),
    name: (row.name as string | null) ?? null,
    prefix: String(row.key_prefix),
    user_id: row.user_id === null ? null : Number(row.user_id),
    created_at: iso(row.created_at) as string,
    last_used_at: iso(row.last_used_at),
    // The key this request came with: the dashboard marks it and cannot delete it.
    current: caller.apiKeyId === Number(row.id),
    access: String(row.access),
    signing_secret_set: row.signing_secret !== null && row.signing_secret !== undefined,
  };
}

/** The account's live keys, newest first. */
export async function listApiKeys(db: Db, caller: Caller): Promise<ApiKeyInfo[]> {
  const rows = await db('api_keys').where({ company_id: caller.companyId }).whereNull('revoked_at').orderBy('id', 'desc');
  return rows.map((r) => toInfo(r, caller));
}

/**
 * A new key for the caller's account, owned by the calling user. The secret is in this answer only.
 * An impersonation token cannot make one: the key would let the admin act as the user with no trace.
 */
export async function createApiKey(db: Db, caller: Caller, name: string | null, secrets: SigningSecrets): Promise<ApiKeyInfo & { key: string; signing_secret: string }> {
  if (caller.impersonatedBy) throw forbidden('API keys cannot be created with an impersonation token');
  return db.transaction(async (trx) => {
    // Counting under the company's row lock keeps two concurrent creates from passing the limit together.
    await lockCompany(trx, caller.companyId).first('id');
    const [live] = await trx('api_keys').where({ company_id: caller.companyId }).whereNull('revoked_at').count('* as n');
    if (Number(live?.n ?? 0) >= MAX_KEYS_PER_ACCOUNT) throw fieldError('name', `the account already has ${MAX_KEYS_PER_ACCOUNT} keys: delete one first`);
    const key = generateApiKey();
    const signing = secrets.fresh();
    const row = await insertApiKey(trx, caller.companyId, key, name, caller.userId, signing.stored);
    return { ...toInfo({ ...row, last_used_at: null, signing_secret: signing.stored }, caller), key, signing_secret: signing.secret };
  });
}

/**
 * Revokes a key of the caller's account (it stops working at once; screenshots keep their history).
 * Another account's key, or one already deleted, is a 404. The key the request itself came with cannot be
 * deleted by that request (400): a client would lock itself out mid-conversation; use another key or the
 * dashboard's session.
 */
export async function revokeApiKey(db: Db, caller: Caller, id: number): Promise<void> {
  const row = await db('api_keys').where({ id, company_id: caller.companyId }).whereNull('revoked_at').first('id');
  if (!row) throw notFound('API key');
  if (caller.apiKeyId === id) throw fieldError('id', 'is the key this request is authenticated with: delete it with another key or from the dashboard');
  await db('api_keys').where({ id, company_id: caller.companyId }).whereNull('revoked_at').update({ revoked_at: new Date() });
}
