import Router from '@koa/router';
import type { JobQueue } from '../../core/contracts/job-queue.js';
import type { NodeRegistry } from '../../core/contracts/node-registry.js';
import type { Db } from '../../core/db/connect.js';
import { notFound } from '../../core/errors.js';
import { NODE_ID_PARAMS } from '../../core/request/endpoint-params.js';
import { readParams } from '../../core/request/read-params.js';
import { ACTIVITY_WINDOW_MINUTES, browserActivity } from '../farm/browser-activity.js';
import { jsonBodyParams } from '../http/json-body.js';
import { requireAdmin, type AppState } from '../http/state.js';

/**
 * GET /admin/nodes: the live nodes of the farm; POST /admin/nodes/drain and /undrain {id}: ask a node
 * to take no new job, finish those in flight and leave, or withdraw that request; GET /admin/browsers:
 * per browser, the queue and the last minutes' throughput and error rate (admin only).
 */
export function adminRoutes(registry: NodeRegistry, queue: JobQueue, db: Db): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/admin' });
  router.get('/browsers', async (ctx) => {
    requireAdmin(ctx);
    ctx.body = { success: true, data: { window_minutes: ACTIVITY_WINDOW_MINUTES, browsers: await browserActivity(db, queue) } };
  });
  router.get('/nodes', async (ctx) => {
    requireAdmin(ctx);
    ctx.body = { success: true, data: await registry.list() };
  });
  for (const [name, drain] of [['drain', true], ['undrain', false]] as const) {
    router.post(`/nodes/${name}`, async (ctx) => {
      requireAdmin(ctx);
      const { id } = readParams(NODE_ID_PARAMS, jsonBodyParams(ctx), ['id']) as { id: string };
      if (!(await registry.requestDrain(id, drain))) throw notFound('Node');
      const node = (await registry.list()).find((n) => n.id === id);
      ctx.body = { success: true, data: node ?? null };
    });
  }
  return router;
}
