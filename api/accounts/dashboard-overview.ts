import type { Db } from '../db/connect.js';
import { notFound } from '../../core/errors.js';
import { getCompany } from './companies.js';
import { planUsageOf, type PlanUsage } from '../billing/plan-usage.js';
import { accountScreenshotCounts, recentScreenshots } from '../screenshots/screenshot-reads.js';
import type { PlanCatalog } from '../billing/plan-catalog.js';

/** Screenshots listed in `recent_screenshots`: one dashboard screen's worth. */
const RECENT_SCREENSHOTS = 10;

/** The spec's Dashboard overview. */
export interface DashboardOverview {
  account: { company_id: number; company_name: string; balance: number };
  billing: PlanUsage | null;
  usage: { total_screenshots: number; screenshots_this_month: number; processing: number; finished: number; error: number };
  batches: { total: number; processing: number; finished: number; error: number };
  recent_screenshots: { id: number; url: string; status: string; cost: number; error: string; created_at: string; finished_at: string }[];
}

/** The first instant of the current calendar month, UTC (as GET /account/info counts "this month"). */
export function monthStartUtc(now: Date = new Date()): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1));
}

const iso = (v: unknown): string => (v === null || v === undefined ? '' : (v instanceof Date ? v : new Date(String(v))).toISOString());

/** The caller's account at a glance, from the ledger-kept balance and the records themselves. */
export async function dashboardOverview(db: Db, plans: PlanCatalog, companyId: number): Promise<DashboardOverview> {
  const company = await getCompany(db, companyId);
  if (!company) throw notFound('Account');
  const statusCounts = (table: string) =>
    db(table)
      .where({ company_id: companyId })
      .first(
        db.raw('count(*) as total'),
        db.raw("count(*) filter (where status = 'processing') as processing"),
        db.raw("count(*) filter (where status = 'finished') as finished"),
        db.raw("count(*) filter (where status = 'error') as error"),
      );
  const [shots, batches, recent, billing] = await Promise.all([
    accountScreenshotCounts(db, companyId, monthStartUtc()),
    statusCounts('batches'),
    recentScreenshots(db, companyId, RECENT_SCREENSHOTS),
    planUsageOf(db, plans, companyId),
  ]);
  const n = (v: unknown): number => Number(v ?? 0);
  return {
    account: { company_id: company.id, company_name: company.name, balance: company.balance },
    billing,
    usage: { total_screenshots: shots.total, screenshots_this_month: shots.thisMonth, processing: shots.processing, finished: shots.finished, error: shots.error },
    batches: { total: n(batches?.total), processing: n(batches?.processing), finished: n(batches?.finished), error: n(batches?.error) },
    recent_screenshots: recent.map((r) => ({
      id: Number(r.id),
      url: String(r.url),
      status: String(r.status),
      cost: Number(r.cost),
      error: String(r.error ?? ''),
      created_at: iso(r.created_at),
      finished_at: iso(r.finished_at),
    })),
  };
}
