import type { Knex } from 'knex';

/**
 * Changes a company's balance together with its ledger row, in one statement. This is the only code that
 * writes `companies.balance`. A debit for a screenshot carries its id, and the ledger's unique
 * (screenshot_id, reason) makes a second debit of the same screenshot impossible: the statement fails and
 * changes nothing (the recorder never tries: it charges only the record it moved out of `processing`).
 * `release`: credits the account's processing records held that this change ends (a finished screenshot's
 * debit releases its own hold), taken off `held_credits` in the same UPDATE. Returns the new balance.
 *
 * One statement, not lock + read + update + insert (four round trips on every recorded capture): the
 * account's row is locked by the `was` sub-select (FOR NO KEY UPDATE, see lock-company.ts), which reads the
 * balance before the change, so the ledger row says what the change really was.
 */
export async function recordCredit(trx: Knex.Transaction, entry: { companyId: number; delta: number; reason: string; screenshotId?: number; release?: number }): Promise<number> {
  // A debit never takes the balance below zero: what was held at create time is what is charged.
  const result = await trx.raw(
    `WITH was AS (SELECT id, balance FROM companies WHERE id = ? FOR NO KEY UPDATE),
     changed AS (
       UPDATE companies c SET balance = GREATEST(0, was.balance + ?), held_credits = c.held_credits - ?
       FROM was WHERE c.id = was.id
       RETURNING c.id, c.balance, was.balance AS before)
     INSERT INTO credit_ledger (company_id, delta, balance_after, reason, screenshot_id)
     SELECT id, balance - before, balance, ?, ? FROM changed
     RETURNING balance_after`,
    [entry.companyId, entry.delta, entry.release ?? 0, entry.reason, entry.screenshotId ?? null],
  );
  const [row] = result.rows as { balance_after: number | string }[];
  if (!row) throw new Error(`company ${entry.companyId} not found`);
  return Number(row.balance_after);
}
