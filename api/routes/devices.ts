import Router from '@koa/router';
import { DEVICES } from '../../core/devices.js';
import type { AppState } from '../http/state.js';

/** GET /device/list: the device catalogue. */
export function deviceRoutes(): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/device' });
  router.get('/list', (ctx) => {
    ctx.body = { success: true, data: DEVICES };
  });
  return router;
}
