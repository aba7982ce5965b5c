import type { Knex } from 'knex';
import { planPriceCents, type Plan } from '../../core/billing/plan.js';
import type { PaymentProvider, PeriodCharge } from '../../core/contracts/payment-provider.js';
import { recordCredit } from '../accounts/ledger.js';
import { periodGrantReason } from './billing-period.js';
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

/**
 * Opens one period of a subscription, inside the caller's transaction (which holds the subscription
 * row): the provider charges or invoices it, a receipt records the outcome, and, unless the charge
 * failed, the plan's monthly screenshots are granted as credits through the ledger. The receipt's
 * unique (subscription, period start) and the ledger's unique `plan:` reason make a second opening of
 * the same period fail instead of granting twice.
 */
export async function openPeriod(trx: Knex.Transaction, provider: PaymentProvider, period: PeriodToOpen): Promise<PeriodCharge> {
  const amountCents = planPriceCents(period.plan);
  const charge = await provider.chargePeriod({
    companyId: period.companyId, subscriptionId: period.subscriptionId, plan: period.plan, amountCents, currency: 'USD',
    periodStart: period.start, periodEnd: period.end, paymentMethod: period.paymentMethod ? attachedOf(period.paymentMethod) : null,
    idempotencyKey: `shotfarm-${period.subscriptionId}-${period.start.toISOString()}`,
  });
  await trx('receipts').insert({
    company_id: period.companyId, subscription_id: period.subscriptionId, plan_id: period.plan.id, period_start: period.start, period_end: period.end,
    amount_cents: amountCents, currency: 'USD', status: charge.status, provider: provider.name, provider_ref: charge.providerRef,
  });
  if (charge.status !== 'failed' && period.plan.monthly_screenshots > 0) {
    await recordCredit(trx, { companyId: period.companyId, delta: period.plan.monthly_screenshots, reason: periodGrantReason(period.subscriptionId, period.start) });
  }
  return charge;
}
