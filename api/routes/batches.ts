import Router from '@koa/router';
import type { Db } from '../../core/db/connect.js';
import { notFound } from '../../core/errors.js';
import { BATCH_ID_PARAMS, BATCH_LIST_PARAMS, DEFAULT_PAGE_SIZE } from '../../core/request/endpoint-params.js';
import { readParams } from '../../core/request/read-params.js';
import { toBatchRecord, type BatchRow } from '../batches/batch-record.js';
import { queryAndBodyOf, queryOf } from '../http/query.js';
import { callerOf, type AppState } from '../http/state.js';

/** The text a cancelled batch carries in `error`. */
export const BATCH_CANCELLED = 'Batch cancelled by the user';

/** GET /batch/list and POST /batch/cancel. */
export function batchRoutes(db: Db): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/batch' });

  router.get('/list', async (ctx) => {
    const p = readParams(BATCH_LIST_PARAMS, queryOf(ctx));
    const rows = await db('batches').where({ company_id: callerOf(ctx).companyId }).orderBy('id', 'desc').limit(p.limit ?? DEFAULT_PAGE_SIZE).offset(p.offset ?? 0);
    ctx.body = { success: true, data: (rows as BatchRow[]).map((r) => toBatchRecord(r)) };
  });

  router.post('/cancel', async (ctx) => {
    const { id } = readParams(BATCH_ID_PARAMS, queryAndBodyOf(ctx), ['id']);
    const companyId = callerOf(ctx).companyId;
    const updated = await db.transaction(async (trx) => {
      const row = await trx('batches').where({ company_id: companyId, id }).forUpdate().first();
      if (!row) throw notFound('Batch');
      // Cancelling keeps the counters; a finished batch is left as it is (there is nothing to stop).
      if (row.status === 'processing') {
        await trx('batches').where({ id }).update({ status: 'error', error: BATCH_CANCELLED, finished: Math.floor(Date.now() / 1000) });
      }
      return trx('batches').where({ id }).first();
    });
    ctx.body = { success: true, data: toBatchRecord(updated as BatchRow) };
  });

  return router;
}
