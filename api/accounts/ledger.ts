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
 * The same change as recordCredit for the records results end, as parts of the recorder's one statement
 * (ScreenshotRecords.applyResults): given a CTE `ended (id, company_id, status, held)` (the records, their accounts,
 * how they ended, the credits each held), `held_account` locks and reads each account's row (in id order, as every
 * writer of several accounts does), `held_settled` releases what the account's records held and takes off the
 * balance what its finished ones held (never below zero), and `held_debit` writes one ledger row per finished
 * record that held credits. Several records of one account end in one statement: their rows say what
 * one debit after the other, in id order, would have said (the running balance of the window `upto`). The
 * ledger's unique (screenshot_id, reason) makes a second debit of one screenshot fail the statement (the recorder
 * never tries: it charges only the records `ended` moved out of `processing`). One binding: the reason.
 */
export const SETTLE_HELD_CTES = `
  held_account AS (SELECT c.id, c.balance FROM companies c WHERE c.id IN (SELECT company_id FROM ended) ORDER BY c.id FOR NO KEY UPDATE OF c),
  held_sums AS (
    SELECT company_id, sum(held) AS held, sum(CASE WHEN status = 'finished' THEN held ELSE 0 END) AS charged
    FROM ended GROUP BY company_id),
  held_settled AS (
    UPDATE companies c SET balance = GREATEST(0, held_account.balance - held_sums.charged), held_credits = c.held_credits - held_sums.held
    FROM held_account JOIN held_sums ON held_sums.company_id = held_account.id
    WHERE c.id = held_account.id
    RETURNING c.id),
  held_debit AS (
    INSERT INTO credit_ledger (company_id, delta, balance_after, reason, screenshot_id)
    SELECT company_id, after - before, after, ?, id FROM (
      SELECT e.company_id, e.id,
        GREATEST(0, a.balance - sum(e.held) OVER upto + e.held) AS before,
        GREATEST(0, a.balance - sum(e.held) OVER upto) AS after
      FROM ended e JOIN held_account a ON a.id = e.company_id
      WHERE e.status = 'finished' AND e.held > 0
      WINDOW upto AS (PARTITION BY e.company_id ORDER BY e.id)) debits
    ORDER BY company_id, id
    RETURNING id)`;
