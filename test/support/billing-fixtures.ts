import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { addMonthsUtc } from '../../api/billing/billing-period.js';
import type { Db } from '../../api/db/connect.js';

/** The plans the billing and overview suites run with, from a real SHOTFARM_PLANS_FILE. */
export const TEST_PLANS = [
  { id: 'free', name: 'Free', price_usd: 0, monthly_screenshots: 50, features: ['50 screenshots a month'], public: true },
  {
    id: 'basic',
    name: 'Basic',
    price_usd: 12.5,
    monthly_screenshots: 200,
    features: ['200 screenshots a month', 'Batches'],
    public: true,
    payment_plan_ids: { monthly: 'price_basic_m', yearly: 'price_basic_y' },
    addons: [{ id: 'extra-1000', quantity: 1, payment_addon_ids: { monthly: 'addon_m', yearly: 'addon_y' } }],
  },
  { id: 'hidden', name: 'Custom', price_usd: 5, monthly_screenshots: 1000, features: [], public: false },
];

/** The bootstrap key of these suites: it acts as an admin user (api/accounts/bootstrap.ts). */
export const ADMIN_KEY = 'test-admin-bootstrap-key-0123456789';

/** This process's folder of plans files (made when first needed; removePlansFiles takes it away). */
let plansDir: string | null = null;
let written = 0;

/** Writes a plans file (any text: the config tests also write broken ones); returns its path. */
export function writePlansFile(text: string): string {
  if (plansDir === null || !fs.existsSync(plansDir)) plansDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-plans-'));
  written += 1;
  const file = path.join(plansDir, `plans-${written}.json`);
  fs.writeFileSync(file, text);
  return file;
}

/** Removes the plans files: call it in the `after` of every suite that wrote some (config is read at start). */
export function removePlansFiles(): void {
  if (plansDir !== null) fs.rmSync(plansDir, { recursive: true, force: true });
  plansDir = null;
}

/** Writes plans to a temporary file; returns the env that points the API at it, with the admin key. */
export function plansEnv(plans: unknown = TEST_PLANS): Record<string, string> {
  return { SHOTFARM_PLANS_FILE: writePlansFile(JSON.stringify(plans)), SHOTFARM_BOOTSTRAP_KEY: ADMIN_KEY };
}

/**
 * Moves a subscription back in time so that `periods` of its periods are due: its current period
 * ended a minute ago, or (for more) a month per extra period and five days earlier, a margin above
 * the few days by which calendar months differ in length.
 */
export async function backdateSubscription(db: Db, subscriptionId: number, periods = 1): Promise<void> {
  const sub = await db('subscriptions').where({ id: subscriptionId }).first();
  const target = periods === 1 ? new Date(Date.now() - 60_000) : new Date(addMonthsUtc(new Date(), -(periods - 1)).getTime() - 5 * 24 * 3600_000);
  const shift = new Date(sub.current_period_end).getTime() - target.getTime();
  const back = (v: unknown): Date => new Date(new Date(v as string).getTime() - shift);
  await db('subscriptions')
    .where({ id: subscriptionId })
    .update({ anchor: back(sub.anchor), current_period_start: back(sub.current_period_start), current_period_end: back(sub.current_period_end) });
}
