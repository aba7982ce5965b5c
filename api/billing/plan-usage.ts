import type { Plan } from '../../core/billing/plan.js';
import type { Db } from '../db/connect.js';
import { LIVE_STATUSES, subscriptionRow, type SubscriptionRow } from './billing-rows.js';
import type { PlanCatalog } from './plan-catalog.js';
import { chargedScreenshotsSince } from '../screenshots/screenshot-reads.js';

/** The `billing` object of the dashboard overview: the live plan and how much of its period is used. */
export interface PlanUsage {
  plan: Plan;
  usage: { screenshots_this_month: number; monthly_limit: number; remaining: number };
}

/**
 * The account's live plan and its use in the current period, or null without a live subscription (or
 * when its plan is no longer configured). "This month" is the subscription's current period, the
 * one its grant was for: the screenshots created since the period started, failed ones excluded as
 * they cost nothing. `remaining` is the grant minus that, never below zero.
 */
export async function planUsageOf(db: Db, plans: PlanCatalog, companyId: number): Promise<PlanUsage | null> {
  const live = await livePlanOf(db, plans, companyId);
  if (!live) return null;
  const { plan, sub } = live;
  const screenshots = await chargedScreenshotsSince(db, companyId, sub.current_period_start);
  return { plan, usage: { screenshots_this_month: screenshots, monthly_limit: plan.monthly_screenshots, remaining: Math.max(0, plan.monthly_screenshots - screenshots) } };
}

/** The account's live subscription and its plan, or null (none, or its plan is no longer configured). */
export async function livePlanOf(db: Db, plans: PlanCatalog, companyId: number): Promise<{ plan: Plan; sub: SubscriptionRow } | null> {
  const row = await db('subscriptions').where({ company_id: companyId }).whereIn('status', LIVE_STATUSES).first();
  if (!row) return null;
  const sub = subscriptionRow(row);
  const plan = plans.find(sub.plan_id);
  return plan ? { plan, sub } : null;
}
