import type { Db } from '../db/connect.js';
import { ApiError, validationError } from '../../core/errors.js';
import type { Caller } from '../http/state.js';
import { findApiKey, generateApiKey, insertApiKey } from './api-keys.js';
import { createCompany, getCompany } from './companies.js';
import { listApiKeys, revokeApiKey, type ApiKeyInfo } from './key-management.js';
import { recordCredit } from './ledger.js';

/**
 * What the operator's command line does to accounts (`shotfarm keys …`, `shotfarm credits add`), one
 * function per command. They run in the process that holds the database: the command line's own when it
 * may open it, else the running service behind its operator endpoint (api/admin/operator-endpoint.ts).
 * A refusal is an ApiError: 400 when an argument names nothing that exists, another status when the
 * state refuses it (the command line ends with exit code 2 or 1).
 */

/** How an operator names an account: by its id, or by one of its live API keys. */
export interface AccountRef {
  company?: number;
  key?: string;
}

/** The command line acting for an account, as its owner would through the API (no key of its own). */
const operatorFor = (companyId: number): Caller => ({ companyId, apiKeyId: null, userId: null, credential: 'cli', roles: [] });

const noSuchAccount = (message: string): ApiError => validationError({ company: [message] }, message);

/** The id of the account `ref` names; 400 when it names none that exists. */
async function accountNamed(db: Db, ref: AccountRef): Promise<number> {
  const companyId = ref.company ?? (ref.key ? (await findApiKey(db, ref.key))?.key.company_id : undefined);
  if (companyId === undefined || !(await getCompany(db, Number(companyId)))) throw noSuchAccount('name an existing account with --company ID or --key KEY');
  return Number(companyId);
}

/** A new API key: on a new account with `credits` opening credits, or on the existing account `company`. */
export async function createOperatorKey(db: Db, input: { credits: number; company?: number; name: string }): Promise<{ key: string; company_id: number; balance: number }> {
  if (input.company !== undefined && !(await getCompany(db, input.company))) throw noSuchAccount(`no account ${input.company}`);
  const companyId = input.company ?? (await createCompany(db, { name: `Account ${new Date().toISOString()}` }, input.credits, 'cli: keys create')).id;
  const key = generateApiKey();
  await insertApiKey(db, companyId, key, input.name);
  return { key, company_id: companyId, balance: (await getCompany(db, companyId))?.balance ?? 0 };
}

/** The live keys of an account, newest first, never their secrets. */
export async function listOperatorKeys(db: Db, ref: AccountRef): Promise<Omit<ApiKeyInfo, 'current'>[]> {
  const companyId = await accountNamed(db, ref);
  return (await listApiKeys(db, operatorFor(companyId))).map(({ current: _current, ...key }) => key);
}

/** Revokes a live key by its id, whatever its account; 404 when no live key has that id. */
export async function revokeOperatorKey(db: Db, id: number): Promise<{ revoked: number; company_id: number }> {
  const row = await db('api_keys').where({ id }).whereNull('revoked_at').first('company_id');
  if (!row) throw new ApiError(404, 'NOT_FOUND', `no live API key ${id}`);
  await revokeApiKey(db, operatorFor(Number(row.company_id)), id);
  return { revoked: id, company_id: Number(row.company_id) };
}

/** Grants credits to an account through the ledger; answers the new balance. */
export async function grantOperatorCredits(db: Db, input: AccountRef & { amount: number; reason: string }): Promise<{ company_id: number; balance: number }> {
  const companyId = await accountNamed(db, input);
  const balance = await db.transaction((trx) => recordCredit(trx, { companyId, delta: input.amount, reason: input.reason.slice(0, 200) }));
  return { company_id: companyId, balance };
}
