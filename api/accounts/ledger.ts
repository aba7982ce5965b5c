import type { Knex } from 'knex';

/**
 * Changes a company's balance together with its ledger row, in one statement. This and SETTLE_HELD_CTES below
 * (a screenshot's debit, inside the recorder's statement) are the only code that writes `companies.balance`.
 * The account's row is locked by the `was` sub-select (FOR NO KEY UPDATE, see lock-company.ts), which reads the
 * balance before the change, so the ledger row says what the change really was. A change never takes the
 * balance below zero. Returns the new balance.
 */
export async function recordCredit(trx: Knex.Transaction, entry: { companyId: number; delta: number; reason: string }): Promise<number> {
  const result = await trx.raw(
    `WITH was AS (SELECT id, balance FROM companies WHERE id = ? FOR NO KEY UPDATE),
     changed AS (
       UPDATE companies c SET balance = GREATEST(0, was.balance + ?)
       FROM was WHERE c.id = was.id
       RETURNING c.id, c.balance, was.balance AS before)
     INSERT INTO credit_ledger (company_id, delta, balance_after, reason)
     SELECT id, balance - before, balance, ? FROM changed
     RETURNING balance_after`,
    [entry.companyId, entry.delta, entry.reason],
  );
  const [row] = result.rows as { balance_after: number | string }[];
  if (!row) throw new Error(`company ${entry.companyId} not found`);
  return Number(row.balance_after);
}

/**
 * The same change as recordCredit for the record a result ends, as parts of the recorder's one statement
 * (ScreenshotRecords.applyResult): given a CTE `ended (id, company_id, held)` (the record, its account, the credits
 * it held), `held_account` locks and reads the account's row, `held_settled` releases the hold and, when the record
 * finished, takes what it held off the balance (never below zero), and `held_debit` writes the
 * ledger row of that debit; the ledger's unique (screenshot_id, reason) makes a second debit of one screenshot
 * fail the statement (the recorder never tries: it charges only the record `ended` moved out of `processing`). Bindings, in order: finished, the reason, finished.
 */
export const SETTLE_HELD_CTES = `
  held_account AS (SELECT c.id, c.balance FROM companies c JOIN ended ON c.id = ended.company_id FOR NO KEY UPDATE OF c),
  held_settled AS (
    UPDATE companies c SET balance = GREATEST(0, held_account.balance - CASE WHEN ?::boolean THEN ended.held ELSE 0 END), held_credits = c.held_credits - ended.held
    FROM held_account JOIN ended ON ended.company_id = held_account.id
    WHERE c.id = held_account.id
    RETURNING c.id, c.balance, held_account.balance AS before, ended.id AS screenshot_id, ended.held),
  held_debit AS (
    INSERT INTO credit_ledger (company_id, delta, balance_after, reason, screenshot_id)
    SELECT id, balance - before, balance, ?, screenshot_id FROM held_settled WHERE ?::boolean AND held > 0
    RETURNING id)`;
