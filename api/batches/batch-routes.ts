import { z } from 'zod';
import { BATCH_OWN_PARAMS, idempotencyKeyParam } from './batch-params.js';
import { CREATE_PARAMS } from '../options/create-params.js';
import { BATCH_ID_PARAMS, BATCH_LIST_PARAMS, DEFAULT_PAGE_SIZE } from '../options/endpoint-params.js';
import { fieldError, notFound } from '../../core/errors.js';
import { readParams } from '../options/read-params.js';
import { batchBodyParser, batchRequestOf } from './batch-request.js';
import { toBatchRecord, type BatchRow } from './batch-record.js';
import { queryOf } from '../http/query.js';
import { callerOf } from '../http/state.js';
import { createAnswerData } from '../http/create-answer.js';
import { Batch, BatchCreated, BatchInfo, BatchRetried } from './batch-shapes.js';
import { createAnswer } from '../http/common-shapes.js';
import { defineRoute, type ApiRoute, type RouteDeps } from '../http/route.js';

const tag = 'Batches';
const record = (deps: RouteDeps, row: BatchRow): Record<string, unknown> => toBatchRecord(row, deps.batchLinks.zipUrl(row));

/** POST /batch/create|cancel|retry, GET /batch/info|list|download. */
export const BATCH_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'post',
    path: '/batch/create',
    operationId: 'createBatch',
    tag,
    credentials: 'account',
    summary: 'Create a batch: one screenshot per URL of the file, packed into a ZIP',
    description:
      'multipart/form-data with the URL list in the part named `file` and every option a form field; or a JSON body whose `file` is the list as text, or whose `urls` is an array. Header `Idempotency-Key`: the same key of the same caller answers the original batch.',
    body: { ...CREATE_PARAMS, ...BATCH_OWN_PARAMS },
    extraBody: {
      file: { type: 'string', description: 'the URL list, one per line (a file part in multipart; text in JSON)' },
      urls: { type: 'array', items: { type: 'string' }, description: 'JSON body only: the URLs, instead of file' },
    },
    upload: { parser: (deps) => batchBodyParser(deps.config.batch.maxFileBytes), mediaTypes: ['multipart/form-data', 'application/json'] },
    // The batch service validates every line and option itself (delay capped to 30, invalid lines reported).
    validatedBy: 'handler',
    response: { data: createAnswer(BatchCreated), description: 'The new batch, status processing' },
    handler: async (ctx, deps) => {
      const header = ctx.get('Idempotency-Key');
      let idempotencyKey: string | null = null;
      if (header) {
        const r = idempotencyKeyParam.read([header]);
        if (!r.ok) throw fieldError('Idempotency-Key', r.messages[0] ?? 'is invalid');
        idempotencyKey = r.value;
      }
      const { fileText, fields } = await batchRequestOf(ctx);
      const { batch } = await deps.batches.create(callerOf(ctx), { fields, fileText, idempotencyKey });
      const invalid = (batch as BatchRow & { options?: { invalid_lines?: unknown[] } }).options?.invalid_lines ?? [];
      // Beyond the spec: the lines that were not used, so a client can fix its file.
      return createAnswerData([{ ...record(deps, batch), name: batch.name, invalid_lines: invalid }], deps.config.clientCompat);
    },
  }),

  defineRoute({
    method: 'get',
    path: '/batch/info',
    operationId: 'getBatch',
    tag,
    credentials: 'account',
    summary: 'One batch, with its name and the ids of its screenshots',
    query: BATCH_ID_PARAMS,
    required: ['id'],
    response: { data: BatchInfo, description: 'The batch' },
    handler: async (ctx, deps, { id }) => {
      const caller = callerOf(ctx);
      const batch = await deps.batches.get(caller, id as number);
      return { ...record(deps, batch), name: batch.name, screenshots: await deps.batches.screenshotIds(caller, batch.id), attempts: await deps.batches.attempts(caller, batch.id) };
    },
  }),

  defineRoute({
    method: 'get',
    path: '/batch/list',
    operationId: 'listBatches',
    tag,
    credentials: 'account',
    summary: 'Batches, newest first',
    query: BATCH_LIST_PARAMS,
    response: { data: z.array(Batch), description: 'The batches' },
    handler: async (ctx, deps, p) => {
      const rows = await deps
        .db('batches')
        .where({ company_id: callerOf(ctx).companyId })
        .orderBy('id', 'desc')
        .limit(p.limit ?? DEFAULT_PAGE_SIZE)
        .offset(p.offset ?? 0);
      return (rows as BatchRow[]).map((r) => record(deps, r));
    },
  }),

  defineRoute({
    method: 'post',
    path: '/batch/cancel',
    operationId: 'cancelBatch',
    tag,
    credentials: 'account',
    summary: 'Cancel a batch (id in the query or a JSON body)',
    query: BATCH_ID_PARAMS,
    body: BATCH_ID_PARAMS,
    required: ['id'],
    response: { data: Batch, description: 'The batch, status error with a cancellation text' },
    handler: async (ctx, deps, { id }) => record(deps, await deps.batches.cancel(callerOf(ctx), id as number)),
  }),

  defineRoute({
    method: 'post',
    path: '/batch/retry',
    operationId: 'retryBatch',
    tag,
    credentials: 'account',
    summary: 'Capture again the screenshots of an ended batch that ended in error (id in the query or a JSON body)',
    description:
      'Beyond the spec. Each failed screenshot is captured again as a new record of the next attempt, charged when it finishes; the ZIP then holds the new images in place of the failed ones. 409 while the batch is processing, 400 when none of its screenshots failed.',
    query: BATCH_ID_PARAMS,
    body: BATCH_ID_PARAMS,
    required: ['id'],
    response: { data: BatchRetried, description: "The batch, processing again, with each attempt's counts" },
    handler: async (ctx, deps, { id }) => {
      const caller = callerOf(ctx);
      const batch = await deps.batches.retry(caller, id as number);
      return { ...record(deps, batch), name: batch.name, attempts: await deps.batches.attempts(caller, batch.id) };
    },
  }),

  defineRoute({
    method: 'get',
    path: '/batch/download',
    operationId: 'downloadBatch',
    tag,
    credentials: 'account',
    summary: "The batch's ZIP, streamed",
    description: "The batch's zip_url points here with a signed, expiring `token`, so that a browser can fetch it without a credential.",
    query: BATCH_ID_PARAMS,
    required: ['id'],
    response: { content: ['application/zip'], description: 'The ZIP archive' },
    signedLink: async (ctx, deps) => {
      const token = new URLSearchParams(ctx.querystring).get('token') as string;
      const { id } = readParams(BATCH_ID_PARAMS, queryOf(ctx), ['id']);
      const batch = await deps.batchLinks.batchForToken(id as number, token);
      // A wrong or expired token is indistinguishable from a batch that does not exist.
      if (!batch) throw notFound('Batch');
      await deps.batchLinks.stream(ctx, batch);
    },
    handler: async (ctx, deps, { id }) => {
      await deps.batchLinks.stream(ctx, await deps.batches.get(callerOf(ctx), id as number));
    },
  }),
];
