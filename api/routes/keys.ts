import Router from '@koa/router';
import type { Db } from '../../core/db/connect.js';
import { readParams } from '../../core/request/read-params.js';
import { createApiKey, listApiKeys, revokeApiKey } from '../accounts/key-management.js';
import { KEY_CREATE_PARAMS, KEY_ID_PARAMS } from '../auth/auth-params.js';
import { jsonBodyParams } from '../http/json-body.js';
import { callerOf, type AppState } from '../http/state.js';

/** GET /key/list, POST /key/create and POST /key/delete?id=: the account's API keys. */
export function keyRoutes(db: Db): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/key' });

  router.get('/list', async (ctx) => {
    ctx.body = { success: true, data: await listApiKeys(db, callerOf(ctx)) };
  });

  router.post('/create', async (ctx) => {
    const p = readParams(KEY_CREATE_PARAMS, jsonBodyParams(ctx));
    ctx.body = { success: true, data: await createApiKey(db, callerOf(ctx), p.name || null) };
  });

  router.post('/delete', async (ctx) => {
    const { id } = readParams(KEY_ID_PARAMS, jsonBodyParams(ctx), ['id']);
    await revokeApiKey(db, callerOf(ctx), id as number);
    ctx.body = { success: true, data: { id, deleted: true } };
  });

  return router;
}
