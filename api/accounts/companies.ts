import type { Db } from '../db/connect.js';
import { recordCredit } from './ledger.js';

export interface CompanyRow {
  id: number;
  name: string;
  email: string;
  balance: number;
  created_at: Date;
}

/**
 * Creates a company (an account) and grants its opening credits through the ledger. `signupMailbox`: the
 * inbox of an account opened by POST /auth/signup, whose credits wait for a verified email (free-grants.ts).
 */
export async function createCompany(db: Db, company: { name: string; email?: string; signupMailbox?: string }, credits: number, reason = 'opening balance'): Promise<CompanyRow> {
  return db.transaction(async (trx) => {
    const [row] = await trx('companies')
      .insert({ name: company.name, email: company.email ?? '', balance: 0, signup_mailbox: company.signupMailbox ?? null })
      .returning('*');
    const created = row as CompanyRow;
    if (credits > 0) created.balance = await recordCredit(trx, { companyId: created.id, delta: credits, reason });
    return created;
  });
}

export async function getCompany(db: Db, id: number): Promise<CompanyRow | null> {
  const row = await db('companies').where({ id }).first();
  return row ? ({ ...row, id: Number(row.id), balance: Number(row.balance) } as CompanyRow) : null;
}
