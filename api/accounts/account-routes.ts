import { notFound } from '../../core/errors.js';
import { getCompany } from './companies.js';
import { livePlanOf } from '../billing/plan-usage.js';
import { callerOf } from '../http/state.js';
import { dashboardOverview, monthStartUtc } from './dashboard-overview.js';
import { accountScreenshotCounts } from '../screenshots/screenshot-reads.js';
import { AccountInfo, DashboardOverview } from './account-shapes.js';
import { defineRoute, type ApiRoute } from '../http/route.js';

/** GET /account/info: the caller's balance, plan and usage. */
export const ACCOUNT_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'get',
    path: '/account/info',
    operationId: 'getAccount',
    tag: 'Account',
    credentials: 'account',
    summary: "Balance and usage of the caller's account",
    response: { data: AccountInfo, description: 'The account' },
    handler: async (ctx, { db, billing }) => {
      const caller = callerOf(ctx);
      const company = await getCompany(db, caller.companyId);
      if (!company) throw notFound('Account');
      const plan = (await livePlanOf(db, billing.plans, caller.companyId))?.plan ?? null;
      const usage = await accountScreenshotCounts(db, caller.companyId, monthStartUtc());
      return {
        balance: company.balance,
        company_id: company.id,
        company_name: company.name,
        // The live subscription's plan id, or null when the account has none: a string, because one official
        // client of the original service types `plan` so and fails on an object. The Plan itself is beside it.
        plan: plan?.id ?? null,
        plan_details: plan,
        usage: { total_screenshots: usage.total, screenshots_this_month: usage.thisMonth, processing: usage.processing },
      };
    },
  }),
];

/** GET /dashboard/overview: the caller's account at a glance (the dashboard's first page). */
export const DASHBOARD_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'get',
    path: '/dashboard/overview',
    operationId: 'getDashboardOverview',
    tag: 'Account',
    credentials: 'account',
    summary: "The caller's account, plan and its period's usage, screenshot and batch counts, latest screenshots",
    response: { data: DashboardOverview, description: 'The overview' },
    handler: (ctx, { db, billing }) => dashboardOverview(db, billing.plans, callerOf(ctx).companyId),
  }),
];
