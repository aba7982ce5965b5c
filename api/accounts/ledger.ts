import type { Knex } from 'knex';
import { lockCompany } from './lock-company.js';

/**
 * Changes a company's balance together with its ledger row, in one transaction. This is the only
 * code that writes `companies.balance`. A debit for a screenshot carries its id, and the ledger's
 * unique (screenshot_id, reason) makes a second debit of the same screenshot impossible.
 * Returns the new balance, or null when this screenshot was already charged for this reason.
 */
export async function recordCredit(trx: Knex.Transaction, entry: { companyId: number; delta: number; reason: string; screenshotId?: number }): Promise<number | null> {
  if (entry.screenshotId !== undefined) {
    const done = await trx('credit_ledger').where({ screenshot_id: entry.screenshotId, reason: entry.reason }).first('id');
    if (done) return null;
  }
  const [company] = await lockCompany(trx, entry.companyId).select('balance');
  if (!company) throw new Error(`company ${entry.companyId} not found`);
  // A debit never takes the balance below zero: what was reserved at create time is what is charged.
  const balanceAfter = Math.max(0, Number(company.balance) + entry.delta);
  const delta = balanceAfter - Number(company.balance);
  await trx('companies').where({ id: entry.companyId }).update({ balance: balanceAfter });
  await trx('credit_ledger').insert({
    company_id: entry.companyId,
    delta,
    balance_after: balanceAfter,
    reason: entry.reason,
    screenshot_id: entry.screenshotId ?? null,
  });
  return balanceAfter;
}
