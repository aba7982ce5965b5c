import type { Db } from '../db/connect.js';
import { fieldError, notFound } from '../../core/errors.js';
import { recordCredit } from './ledger.js';
import { lockCompany } from './lock-company.js';

export interface CreditChange {
  company_id: number;
  delta: number;
  balance: number;
  reason: string;
}

/**
 * An admin grants (positive) or removes (negative) credits of an account, through the ledger. The ledger
 * row's reason names the admin (`admin:<user id>: <reason>`). Removing more than the balance is a 400 and
 * changes nothing: the ledger would otherwise record a smaller debit than the admin asked for.
 */
export async function changeCredits(db: Db, adminUserId: number, input: { companyId: number; amount: number; reason: string }): Promise<CreditChange> {
  const reason = `admin:${adminUserId}: ${input.reason}`;
  return db.transaction(async (trx) => {
    // Locked until the ledger row is written, so a concurrent debit cannot slip between check and change.
    const company = await lockCompany(trx, input.companyId).first('balance');
    if (!company) throw notFound('Account');
    const balance = Number(company.balance);
    if (balance + input.amount < 0) throw fieldError('amount', `would take the balance below zero (the balance is ${balance})`);
    const after = await recordCredit(trx, { companyId: input.companyId, delta: input.amount, reason });
    return { company_id: input.companyId, delta: input.amount, balance: after, reason };
  });
}
