import type { Knex } from 'knex';
import { planPriceCents } from '../../core/billing/plan.js';
import type { PaymentProvider } from '../../core/contracts/payment-provider.js';
import type { Db } from '../../core/db/connect.js';
import { ApiError, fieldError, notFound } from '../../core/errors.js';
import type { Caller } from '../http/state.js';
import { periodEnd } from './billing-period.js';
import { LIVE_STATUSES, subscriptionRow, type SubscriptionRow } from './billing-rows.js';
import { openPeriod } from './period-opener.js';
import type { PaymentMethods } from './payment-methods.js';
import type { PlanCatalog } from './plan-catalog.js';
import { lockCompany } from '../accounts/lock-company.js';

/**
 * Subscribing and cancelling. An account has at most one live subscription (active, or cancelled and
 * running to the end of its period):
 * - subscribing to the plan it is already on keeps that subscription and its period (no new charge or
 *   credits), takes back a cancellation, and switches the payment method when one is given;
 * - subscribing to another plan ends the live one now and starts a new one, whose first period is
 *   charged (or invoiced) and granted at once;
 * - cancelling stops the next renewal; the period already paid for runs to its end.
 */
export class Subscriptions {
  constructor(
    private readonly db: Db,
    private readonly plans: PlanCatalog,
    private readonly methods: PaymentMethods,
    private readonly provider: PaymentProvider,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async subscribe(caller: Caller, input: { planId: string; paymentMethodToken?: string }): Promise<SubscriptionRow> {
    const plan = this.plans.subscribable(input.planId, caller);
    if (!plan) throw fieldError('planId', 'is not a plan you can subscribe to (see GET /billing/plans)');
    const companyId = caller.companyId;
    return this.db.transaction(async (trx) => {
      // The account row orders concurrent billing changes of one account.
      await lockCompany(trx, companyId).first('id');
      const method = input.paymentMethodToken !== undefined
        ? await this.methods.byToken(trx, companyId, input.paymentMethodToken)
        : await this.methods.defaultOf(trx, companyId);
      if (planPriceCents(plan) > 0 && !method) {
        throw fieldError('paymentMethodToken', 'is required for a paid plan: add a payment method with POST /billing/payment-methods first');
      }
      const live = await this.liveOf(trx, companyId);
      if (live && live.plan_id === plan.id) {
        const [row] = await trx('subscriptions').where({ id: live.id }).update({
          status: 'active', cancelled_at: null, updated_at: trx.fn.now(),
          payment_method_id: input.paymentMethodToken !== undefined && method ? method.id : live.payment_method_id,
        }).returning('*');
        return subscriptionRow(row);
      }
      const now = this.now();
      if (live) {
        await this.provider.cancelSubscription({ companyId, subscriptionId: live.id });
        await trx('subscriptions').where({ id: live.id }).update({ status: 'ended', ended_at: now, updated_at: now });
      }
      const [inserted] = await trx('subscriptions').insert({
        company_id: companyId, plan_id: plan.id, status: 'active', payment_method_id: method?.id ?? null, provider: this.provider.name,
        anchor: now, period_number: 0, current_period_start: now, current_period_end: periodEnd(now, 0), created_at: now, updated_at: now,
      }).returning('*');
      const sub = subscriptionRow(inserted);
      const charge = await openPeriod(trx, this.provider, { companyId, subscriptionId: sub.id, plan, start: sub.current_period_start, end: sub.current_period_end, paymentMethod: method });
      // A declined first charge leaves nothing behind: the transaction, and so the subscription, is undone.
      if (charge.status === 'failed') throw new ApiError(402, 'PAYMENT_FAILED', charge.message || 'The payment method was declined');
      return sub;
    });
  }

  async cancel(caller: Caller, input: { subscriptionId?: string }): Promise<SubscriptionRow> {
    const companyId = caller.companyId;
    return this.db.transaction(async (trx) => {
      const live = await this.liveOf(trx, companyId);
      // Another account's subscription id answers like one that does not exist.
      if (!live || (input.subscriptionId !== undefined && String(live.id) !== input.subscriptionId)) throw notFound('Subscription');
      if (live.status === 'cancelled') return live;
      await this.provider.cancelSubscription({ companyId, subscriptionId: live.id });
      const [row] = await trx('subscriptions').where({ id: live.id }).update({ status: 'cancelled', cancelled_at: this.now(), updated_at: this.now() }).returning('*');
      return subscriptionRow(row);
    });
  }

  /** The account's live subscription, locked for the transaction, or null. */
  private async liveOf(trx: Knex.Transaction, companyId: number): Promise<SubscriptionRow | null> {
    const row = await trx('subscriptions').where({ company_id: companyId }).whereIn('status', LIVE_STATUSES).forUpdate().first();
    return row ? subscriptionRow(row) : null;
  }
}
