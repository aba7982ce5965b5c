import Router from '@koa/router';
import type { NodeRegistry } from '../../core/contracts/node-registry.js';
import { requireAdmin, type AppState } from '../http/state.js';

/** GET /admin/nodes: the live nodes of the farm (admin only). */
export function adminRoutes(registry: NodeRegistry): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/admin' });
  router.get('/nodes', async (ctx) => {
    requireAdmin(ctx);
    ctx.body = { success: true, data: await registry.list() };
  });
  return router;
}
