import Router from '@koa/router';
import type { Db } from '../../core/db/connect.js';
import type { PlanCatalog } from '../billing/plan-catalog.js';
import { callerOf, type AppState } from '../http/state.js';
import { dashboardOverview } from '../overview/dashboard-overview.js';

/** GET /dashboard/overview: the caller's account, plan, usage, batches and latest screenshots. */
export function dashboardRoutes(db: Db, plans: PlanCatalog): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/dashboard' });
  router.get('/overview', async (ctx) => {
    ctx.body = { success: true, data: await dashboardOverview(db, plans, callerOf(ctx).companyId) };
  });
  return router;
}
