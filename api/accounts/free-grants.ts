import type { Knex } from 'knex';
import { planPriceCents, type Plan } from '../../core/billing/plan.js';
import { ApiError } from '../../core/errors.js';
import type { Caller } from '../http/state.js';
import { recordCredit } from './ledger.js';
import { mailboxOf } from './mailbox.js';

/**
 * Credits for accounts anyone can open (POST /auth/signup). Scripted sign-ups once took a free plan's 100
 * credits per account, 50 accounts a minute from one address (issue 25), so for an account opened by
 * signup (companies.signup_mailbox set; accounts the operator opens are not held back):
 * - no credits at all (no subscription, no signup credits) until one of its users has verified its email;
 * - free credits (SHOTFARM_SIGNUP_CREDITS, a plan that costs nothing) only for the one account per inbox
 *   (api/accounts/mailbox.ts) that verified it first: it holds the inbox's `mailbox_free_grants` row.
 * Admins are trusted (they can grant credits anyway).
 */

const SIGNUP_CREDITS_REASON = 'signup credits';

const emailNotVerified = (): ApiError =>
  new ApiError(
    403,
    'EMAIL_NOT_VERIFIED',
    'Confirm your email address first: open the link of the welcome email (a password reset link confirms it too). Credits come only to accounts with a confirmed email.',
  );

const freeGrantTaken = (mailbox: string): ApiError =>
  new ApiError(403, 'FORBIDDEN', `Free credits go to one account per email inbox, and another account of ${mailbox} has them: choose a paid plan, or use that account`);

/** A plan that grants credits without a charge: the free plan (and any other that costs nothing). */
const isFree = (plan: Plan): boolean => planPriceCents(plan) === 0 && plan.monthly_screenshots > 0;

/** The inbox an account was opened for by signup, or null for an account the operator opened. */
async function signupMailboxOf(db: Knex, companyId: number): Promise<string | null> {
  const row = await db('companies').where({ id: companyId }).first('signup_mailbox');
  return (row?.signup_mailbox as string | null | undefined) ?? null;
}

const holdsFreeGrant = async (db: Knex, companyId: number, mailbox: string): Promise<boolean> => Boolean(await db('mailbox_free_grants').where({ mailbox, company_id: companyId }).first('mailbox'));

/**
 * A user's email was just verified (in `trx`): when it is the email its account was opened with by signup
 * and no account of that inbox has taken the inbox's free grant yet, this account takes it and gets the
 * signup credits. Returns whether it did.
 */
export async function claimFreeGrant(trx: Knex.Transaction, user: { companyId: number; email: string }, signupCredits: number): Promise<boolean> {
  const mailbox = mailboxOf(user.email);
  if ((await signupMailboxOf(trx, user.companyId)) !== mailbox) return false;
  const [claimed] = await trx('mailbox_free_grants').insert({ mailbox, company_id: user.companyId }).onConflict('mailbox').ignore().returning('mailbox');
  if (!claimed) return false;
  if (signupCredits > 0) await recordCredit(trx, { companyId: user.companyId, delta: signupCredits, reason: SIGNUP_CREDITS_REASON });
  return true;
}

/** Throws 403 when the caller's account may not be granted this plan's credits now (see above). */
export async function assertPlanGrantable(db: Knex, caller: Caller, plan: Plan): Promise<void> {
  if (plan.monthly_screenshots === 0 || caller.roles.includes('admin')) return;
  const mailbox = await signupMailboxOf(db, caller.companyId);
  if (mailbox === null) return;
  if (!(await db('users').where({ company_id: caller.companyId, email_verified: true }).first('id'))) throw emailNotVerified();
  if (isFree(plan) && !(await holdsFreeGrant(db, caller.companyId, mailbox))) throw freeGrantTaken(mailbox);
}

/** Whether a renewal may grant this plan to the account: a free plan only to the holder of its inbox's free grant. */
export async function renewalGrantable(db: Knex, companyId: number, plan: Plan): Promise<boolean> {
  if (!isFree(plan)) return true;
  const mailbox = await signupMailboxOf(db, companyId);
  return mailbox === null || holdsFreeGrant(db, companyId, mailbox);
}
