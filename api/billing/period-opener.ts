import type { Knex } from 'knex';
import { planPriceCents, type Plan } from '../../core/billing/plan.js';
import type { PaymentProvider, PeriodCharge } from '../../core/contracts/payment-provider.js';
import { recordCredit } from '../accounts/ledger.js';
import { periodGrantReason, upgradeGrantReason } from './billing-period.js';
import type { PaymentMethodRow } from './billing-rows.js';
import { attachedOf } from './payment-methods.js';

export interface PeriodToOpen {
  companyId: number;
  subscriptionId: number;
  plan: Plan;
  start: Date;
  end: Date;
  paymentMethod: PaymentMethodRow | null;
}

/** One charge of a subscription and what it grants: a whole period, or the rest of one after an upgrade. */
interface Charge extends PeriodToOpen {
  amountCents: number;
  credits: number;
  reason: string;
  idempotencyKey: string;
}

/**
 * The provider charges or invoices, a receipt records the outcome, and, unless the charge failed, the
 * credits are granted through the ledger under a `plan:` reason. The receipt's unique (subscription,
 * start) and the ledger's unique `plan:` reasons make a second charge of the same thing fail instead of
 * granting twice.
 */
async function chargeAndGrant(trx: Knex.Transaction, provider: PaymentProvider, c: Charge): Promise<PeriodCharge> {
  const charge = await provider.chargePeriod({
    companyId: c.companyId,
    subscriptionId: c.subscriptionId,
    plan: c.plan,
    amountCents: c.amountCents,
    currency: 'USD',
    periodStart: c.start,
    periodEnd: c.end,
    paymentMethod: c.paymentMethod ? attachedOf(c.paymentMethod) : null,
    idempotencyKey: c.idempotencyKey,
  });
  await trx('receipts').insert({
    company_id: c.companyId,
    subscription_id: c.subscriptionId,
    plan_id: c.plan.id,
    period_start: c.start,
    period_end: c.end,
    amount_cents: c.amountCents,
    currency: 'USD',
    status: charge.status,
    provider: provider.name,
    provider_ref: charge.providerRef,
  });
  if (charge.status !== 'failed' && c.credits > 0) await recordCredit(trx, { companyId: c.companyId, delta: c.credits, reason: c.reason });
  return charge;
}

/**
 * Opens one period of a subscription, inside the caller's transaction (which holds the subscription
 * row): the plan's price is charged and its monthly screenshots granted, once per period.
 */
export async function openPeriod(trx: Knex.Transaction, provider: PaymentProvider, period: PeriodToOpen): Promise<PeriodCharge> {
  return chargeAndGrant(trx, provider, {
    ...period,
    amountCents: planPriceCents(period.plan),
    credits: period.plan.monthly_screenshots,
    reason: periodGrantReason(period.subscriptionId, period.start),
    idempotencyKey: `shotfarm-${period.subscriptionId}-${period.start.toISOString()}`,
  });
}

/** The share of a period still to run at `now`, from 0 to 1. */
export function remainingShare(periodStart: Date, periodEnd: Date, now: Date): number {
  const length = periodEnd.getTime() - periodStart.getTime();
  return length <= 0 ? 0 : Math.min(1, Math.max(0, (periodEnd.getTime() - now.getTime()) / length));
}

/**
 * An upgrade within a period: the rest of the period (`start` is the moment of the upgrade) is charged
 * and granted at the difference of the two plans, prorated to the share of the period left and rounded
 * to the cent and to the credit. Computed once per plan and period: its ledger reason names both, and a
 * plan only ever rises within a period (a downgrade waits for the next one), so it cannot repeat.
 */
export async function openUpgrade(trx: Knex.Transaction, provider: PaymentProvider, upgrade: PeriodToOpen & { from: Plan; periodStart: Date }): Promise<PeriodCharge> {
  const share = remainingShare(upgrade.periodStart, upgrade.end, upgrade.start);
  const { from, periodStart, ...period } = upgrade;
  return chargeAndGrant(trx, provider, {
    ...period,
    amountCents: Math.max(0, Math.round((planPriceCents(period.plan) - planPriceCents(from)) * share)),
    credits: Math.max(0, Math.round((period.plan.monthly_screenshots - from.monthly_screenshots) * share)),
    reason: upgradeGrantReason(period.subscriptionId, periodStart, period.plan.id),
    idempotencyKey: `shotfarm-${period.subscriptionId}-${periodStart.toISOString()}-upgrade-${period.plan.id}`,
  });
}
