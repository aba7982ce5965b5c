import type { Knex } from 'knex';
import { insufficientBalance } from '../../core/errors.js';

/**
 * The credits an account's records still `processing` hold: `companies.held_credits`, the sum of their cost.
 * The record module (api/screenshots/screenshot-records.ts) keeps it, in the transaction that inserts such
 * records (holdCredits) and in each that ends them (releaseCredits, or the debit of a finished one:
 * recordCredit's `release`). A create is refused when the balance less what is held cannot cover it.
 */

/**
 * Holds `amount` more credits for records this transaction inserted, when the account's balance is positive
 * and, less what it holds already, covers them; otherwise 403 (the caller's transaction rolls back, nothing
 * is created). One conditional UPDATE: the account's row is locked from here to the commit, so callers run it
 * last, and concurrent creates of one account are checked one after the other against the latest sum.
 */
export async function holdCredits(trx: Knex.Transaction, companyId: number, amount: number): Promise<void> {
  const held = await holdCreditsStatement(trx, companyId, amount);
  if (held.length === 0) await refuseHold(trx, companyId, amount);
}

/**
 * holdCredits' UPDATE as a statement of its own, for a caller that makes it a CTE of the statement that
 * inserts the records (a create in one statement): the account's id when held, no row when refused.
 */
export function holdCreditsStatement(db: Knex, companyId: number, amount: number): Knex.QueryBuilder {
  return db('companies').where({ id: companyId }).andWhere('balance', '>', 0).andWhereRaw('balance - held_credits >= ?', [amount]).increment('held_credits', amount).returning('id');
}

/** The 403 of a refused hold; the sentence says what is available (the row is not locked here: it is only the message). */
export async function refuseHold(db: Knex, companyId: number, amount: number): Promise<never> {
  const row = await db('companies').where({ id: companyId }).first('balance', 'held_credits');
  const available = Math.max(0, Number(row?.balance ?? 0) - Number(row?.held_credits ?? 0));
  throw insufficientBalance(`Insufficient balance: this request costs ${amount} credit(s) and ${available} are available`);
}

/**
 * Releases what ended records held (error, cancelled, never queued, deleted): credits per account. Accounts
 * in ascending id order, so two transactions that end records of the same accounts cannot deadlock.
 */
export async function releaseCredits(trx: Knex.Transaction, byCompany: Map<number, number>): Promise<void> {
  for (const [companyId, amount] of [...byCompany].sort(([a], [b]) => a - b)) {
    if (amount !== 0) await trx('companies').where({ id: companyId }).decrement('held_credits', amount);
  }
}

/** What rows of ended records (company_id, the cost they held) held, per account. */
export function heldBy(rows: { company_id: number | string; held: number | string }[]): Map<number, number> {
  const byCompany = new Map<number, number>();
  for (const r of rows) byCompany.set(Number(r.company_id), (byCompany.get(Number(r.company_id)) ?? 0) + Number(r.held));
  return byCompany;
}
