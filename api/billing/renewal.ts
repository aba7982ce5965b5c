import type { PaymentProvider } from '../../core/contracts/payment-provider.js';
import type { Db } from '../db/connect.js';
import type { Logger } from '../../core/logger.js';
import { renewalGrantable } from '../accounts/free-grants.js';
import { periodEnd } from './billing-period.js';
import { LIVE_STATUSES, subscriptionRow } from './billing-rows.js';
import { openPeriod } from './period-opener.js';
import type { PaymentMethods } from './payment-methods.js';
import type { PlanCatalog } from './plan-catalog.js';

/** Due subscriptions read per query; each is then renewed in its own short transaction. */
const DUE_PAGE = 100;

/**
 * Renews every live subscription whose period has ended: a cancelled one ends; an active one gets its
 * next period (contiguous with the last: a control plane that was down for two months renews two
 * periods, each with its receipt and credits). A declined charge makes it `past_due`: no credits, no
 * further renewals; subscribing again starts afresh. Several control planes may run this at once:
 * each subscription is renewed under its row lock (others skip it), and re-checked once locked.
 */
export class SubscriptionRenewal {
  constructor(
    private readonly db: Db,
    private readonly plans: PlanCatalog,
    private readonly methods: PaymentMethods,
    private readonly provider: PaymentProvider,
    private readonly log: Logger,
  ) {}

  /** Renews what is due at `now`; returns how many periods were opened or subscriptions ended. */
  async renewDue(now: Date = new Date()): Promise<number> {
    let done = 0;
    // Subscriptions that failed in this run are not retried in it, so they cannot hide the others.
    const failed: number[] = [];
    for (;;) {
      const due = await this.db('subscriptions')
        .whereIn('status', LIVE_STATUSES)
        .where('current_period_end', '<=', now)
        .whereNotIn('id', failed)
        .orderBy('current_period_end')
        .limit(DUE_PAGE)
        .pluck('id');
      let progressed = 0;
      for (const id of due) {
        try {
          if (await this.renewOne(Number(id), now)) progressed++;
        } catch (err) {
          // The provider or the database failed for this one: it stays due and is tried at the next tick.
          this.log.error({ err, subscriptionId: id }, 'subscription renewal failed');
          failed.push(Number(id));
        }
      }
      done += progressed;
      // Nothing moved (all failing, or renewed by another control plane): the next tick tries again.
      if (due.length === 0 || progressed === 0) return done;
    }
  }

  /** One step for one subscription: its next period, or its end. False when it was not (or no longer) due. */
  private async renewOne(id: number, now: Date): Promise<boolean> {
    return this.db.transaction(async (trx) => {
      const locked = await trx('subscriptions').where({ id }).whereIn('status', LIVE_STATUSES).where('current_period_end', '<=', now).forUpdate().skipLocked().first();
      if (!locked) return false;
      const sub = subscriptionRow(locked);
      // A downgrade chosen during the period takes effect now, with the new period.
      const plan = this.plans.find(sub.next_plan_id ?? sub.plan_id);
      // A free plan held by an account that is not its email inbox's free account (one from before free grants
      // were counted per inbox: migration 012) ends instead of granting again.
      const grantable = plan !== null && (await renewalGrantable(trx, sub.company_id, plan));
      if (sub.status === 'cancelled' || !plan || !grantable) {
        if (sub.status !== 'cancelled')
          this.log.warn(
            { subscriptionId: sub.id, planId: sub.next_plan_id ?? sub.plan_id },
            plan ? "a free plan of an account that is not its email inbox's free account: the subscription ends" : 'the plan of a subscription is no longer configured: the subscription ends',
          );
        await trx('subscriptions').where({ id }).update({ status: 'ended', ended_at: sub.current_period_end, updated_at: now });
        return true;
      }
      const method = sub.payment_method_id === null ? null : await this.methods.byId(trx, sub.payment_method_id);
      const number = sub.period_number + 1;
      const start = sub.current_period_end;
      const end = periodEnd(sub.anchor, number);
      const charge = await openPeriod(trx, this.provider, { companyId: sub.company_id, subscriptionId: sub.id, plan, start, end, paymentMethod: method });
      if (charge.status === 'failed') {
        this.log.warn({ subscriptionId: sub.id, message: charge.message }, 'a renewal charge was declined: the subscription is past due');
        await trx('subscriptions').where({ id }).update({ status: 'past_due', updated_at: now });
        return true;
      }
      await trx('subscriptions').where({ id }).update({ plan_id: plan.id, next_plan_id: null, period_number: number, current_period_start: start, current_period_end: end, updated_at: now });
      return true;
    });
  }
}
