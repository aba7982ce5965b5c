import type { Knex } from 'knex';
import { planPriceCents, type Plan } from '../../core/billing/plan.js';
import type { PaymentProvider } from '../../core/contracts/payment-provider.js';
import type { Db } from '../db/connect.js';
import { ApiError, fieldError, notFound } from '../../core/errors.js';
import type { Caller } from '../http/state.js';
import { periodEnd } from './billing-period.js';
import { LIVE_STATUSES, subscriptionRow, type PaymentMethodRow, type SubscriptionRow } from './billing-rows.js';
import type { OfflinePaymentsGate } from './offline-payments.js';
import { openPeriod, openUpgrade } from './period-opener.js';
import type { PaymentMethods } from './payment-methods.js';
import type { PlanCatalog } from './plan-catalog.js';
import { assertPlanGrantable } from '../accounts/free-grants.js';
import { lockCompany } from '../accounts/lock-company.js';

/**
 * Subscribing and cancelling. An account has at most one live subscription (active, or cancelled and
 * running to the end of its period), and a period's credits are granted once whatever the switches:
 * - no live subscription: a new one starts, its first period charged (or invoiced) and granted at once;
 * - the plan it is already on: the subscription and its period are kept (nothing charged or granted),
 *   a cancellation or a pending downgrade is taken back, the payment method switched when one is given;
 * - a plan granting more (an upgrade): the same subscription and period, now on the new plan; the rest of
 *   the period is charged and granted at the difference of the two plans, prorated (openUpgrade);
 * - a plan granting the same or less (a downgrade): nothing now; the next period opens on it (renewal.ts);
 * - cancelling stops the next renewal; the period already paid for runs to its end, and subscribing again
 *   within it is one of the cases above on the same subscription, never a new period.
 * An account opened by signup subscribes only once its email is verified, and to a free plan only as its
 * inbox's one free account (api/accounts/free-grants.ts): a 403 otherwise, before anything changes.
 */
export class Subscriptions {
  constructor(
    private readonly db: Db,
    private readonly plans: PlanCatalog,
    private readonly methods: PaymentMethods,
    private readonly provider: PaymentProvider,
    private readonly offline: OfflinePaymentsGate,
    private readonly now: () => Date = () => new Date(),
  ) {}

  async subscribe(caller: Caller, input: { planId: string; paymentMethodToken?: string }): Promise<SubscriptionRow> {
    const plan = this.plans.subscribable(input.planId, caller);
    if (!plan) throw fieldError('planId', 'is not a plan you can subscribe to (see GET /billing/plans)');
    const companyId = caller.companyId;
    return this.db.transaction(async (trx) => {
      // The account row orders concurrent billing changes of one account.
      await lockCompany(trx, companyId).first('id');
      await assertPlanGrantable(trx, caller, plan);
      const method = input.paymentMethodToken !== undefined ? await this.methods.byToken(trx, companyId, input.paymentMethodToken) : await this.methods.defaultOf(trx, companyId);
      if (planPriceCents(plan) > 0) {
        if (!method) throw fieldError('paymentMethodToken', 'is required for a paid plan: add a payment method with POST /billing/payment-methods first');
        await this.offline.assertAllowed(trx, caller);
      }
      const live = await this.liveOf(trx, companyId);
      if (!live) return this.start(trx, companyId, plan, method);
      const paymentMethodId = input.paymentMethodToken !== undefined && method ? method.id : live.payment_method_id;
      const kept = { status: 'active', cancelled_at: null, payment_method_id: paymentMethodId, updated_at: trx.fn.now() };
      const current = this.plans.find(live.plan_id);
      if (live.plan_id === plan.id) return this.update(trx, live.id, { ...kept, next_plan_id: null });
      // A plan no longer configured grants nothing from here on: any configured plan is an upgrade of it.
      if (current && plan.monthly_screenshots <= current.monthly_screenshots) return this.update(trx, live.id, { ...kept, next_plan_id: plan.id });
      const upgrade = await openUpgrade(trx, this.provider, {
        companyId,
        subscriptionId: live.id,
        plan,
        from: current ?? { ...plan, price_usd: 0, monthly_screenshots: 0 },
        start: this.now(),
        end: live.current_period_end,
        periodStart: live.current_period_start,
        paymentMethod: method,
      });
      if (upgrade.status === 'failed') throw new ApiError(402, 'PAYMENT_FAILED', upgrade.message || 'The payment method was declined');
      return this.update(trx, live.id, { ...kept, plan_id: plan.id, next_plan_id: null });
    });
  }

  /** A new subscription, its first period opened (charged and granted) now; a declined charge undoes it all. */
  private async start(trx: Knex.Transaction, companyId: number, plan: Plan, method: PaymentMethodRow | null): Promise<SubscriptionRow> {
    const now = this.now();
    const [inserted] = await trx('subscriptions')
      .insert({
        company_id: companyId,
        plan_id: plan.id,
        status: 'active',
        payment_method_id: method?.id ?? null,
        provider: this.provider.name,
        anchor: now,
        period_number: 0,
        current_period_start: now,
        current_period_end: periodEnd(now, 0),
        created_at: now,
        updated_at: now,
      })
      .returning('*');
    const sub = subscriptionRow(inserted);
    const charge = await openPeriod(trx, this.provider, { companyId, subscriptionId: sub.id, plan, start: sub.current_period_start, end: sub.current_period_end, paymentMethod: method });
    // A declined first charge leaves nothing behind: the transaction, and so the subscription, is undone.
    if (charge.status === 'failed') throw new ApiError(402, 'PAYMENT_FAILED', charge.message || 'The payment method was declined');
    return sub;
  }

  private async update(trx: Knex.Transaction, id: number, changes: Record<string, unknown>): Promise<SubscriptionRow> {
    const [row] = await trx('subscriptions').where({ id }).update(changes).returning('*');
    return subscriptionRow(row);
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
