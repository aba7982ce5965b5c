import Router from '@koa/router';
import type { Db } from '../../core/db/connect.js';
import { requireAdmin, type AppState } from '../http/state.js';
import { adminOverview } from '../overview/admin-overview.js';

/** GET /admin/overview: totals across every account (admin only; 403 to users). */
export function adminOverviewRoutes(db: Db): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/admin' });
  router.get('/overview', async (ctx) => {
    requireAdmin(ctx);
    ctx.body = { success: true, data: await adminOverview(db) };
  });
  return router;
}
