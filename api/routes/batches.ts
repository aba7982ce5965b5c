import Router from '@koa/router';
import type { ClientCompat } from '../../core/config/config.js';
import type { Db } from '../../core/db/connect.js';
import { BATCH_ID_PARAMS, BATCH_LIST_PARAMS, DEFAULT_PAGE_SIZE } from '../../core/request/endpoint-params.js';
import { idempotencyKeyParam } from '../../core/request/batch-params.js';
import { fieldError } from '../../core/errors.js';
import { readParams } from '../../core/request/read-params.js';
import { batchBodyParser, batchRequestOf } from '../batches/batch-request.js';
import type { BatchLinks } from '../batches/batch-links.js';
import { toBatchRecord, type BatchRow } from '../batches/batch-record.js';
import type { BatchService } from '../batches/batch-service.js';
import { jsonBodyParams } from '../http/json-body.js';
import { queryOf } from '../http/query.js';
import { callerOf, type AppState } from '../http/state.js';
import { createAnswerData } from './create-answer.js';

export interface BatchRouteDeps { db: Db; batches: BatchService; links: BatchLinks; maxFileBytes: number; clientCompat: ClientCompat }

/** POST /batch/create|cancel|retry, GET /batch/info|list|download. */
export function batchRoutes(deps: BatchRouteDeps): Router<AppState> {
  const { db, batches, links } = deps;
  const router = new Router<AppState>({ prefix: '/batch' });
  const record = (row: BatchRow): Record<string, unknown> => toBatchRecord(row, links.zipUrl(row));

  router.post('/create', batchBodyParser(deps.maxFileBytes), async (ctx) => {
    const header = ctx.get('Idempotency-Key');
    let idempotencyKey: string | null = null;
    if (header) {
      const r = idempotencyKeyParam.read([header]);
      if (!r.ok) throw fieldError('Idempotency-Key', r.messages[0] ?? 'is invalid');
      idempotencyKey = r.value;
    }
    const { fileText, fields } = await batchRequestOf(ctx);
    const { batch } = await batches.create(callerOf(ctx), { fields, fileText, idempotencyKey });
    const invalid = ((batch as BatchRow & { options?: { invalid_lines?: unknown[] } }).options?.invalid_lines ?? []);
    // Beyond the spec: the lines that were not used, so a client can fix its file.
    ctx.body = { success: true, data: createAnswerData([{ ...record(batch), name: batch.name, invalid_lines: invalid }], deps.clientCompat) };
  });

  router.get('/info', async (ctx) => {
    const { id } = readParams(BATCH_ID_PARAMS, queryOf(ctx), ['id']);
    const caller = callerOf(ctx);
    const batch = await batches.get(caller, id as number);
    ctx.body = { success: true, data: { ...record(batch), name: batch.name, screenshots: await batches.screenshotIds(caller, batch.id), attempts: await batches.attempts(caller, batch.id) } };
  });

  router.post('/retry', async (ctx) => {
    const { id } = readParams(BATCH_ID_PARAMS, jsonBodyParams(ctx), ['id']);
    const caller = callerOf(ctx);
    const batch = await batches.retry(caller, id as number);
    ctx.body = { success: true, data: { ...record(batch), name: batch.name, attempts: await batches.attempts(caller, batch.id) } };
  });

  router.get('/list', async (ctx) => {
    const p = readParams(BATCH_LIST_PARAMS, queryOf(ctx));
    const rows = await db('batches').where({ company_id: callerOf(ctx).companyId }).orderBy('id', 'desc').limit(p.limit ?? DEFAULT_PAGE_SIZE).offset(p.offset ?? 0);
    ctx.body = { success: true, data: (rows as BatchRow[]).map(record) };
  });

  router.post('/cancel', async (ctx) => {
    const { id } = readParams(BATCH_ID_PARAMS, jsonBodyParams(ctx), ['id']);
    ctx.body = { success: true, data: record(await batches.cancel(callerOf(ctx), id as number)) };
  });

  router.get('/download', async (ctx) => {
    const { id } = readParams(BATCH_ID_PARAMS, queryOf(ctx), ['id']);
    await links.stream(ctx, await batches.get(callerOf(ctx), id as number));
  });

  return router;
}
