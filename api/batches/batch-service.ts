import type { Knex } from 'knex';
import type { Config } from '../../core/config/config.js';
import type { JobQueue } from '../../core/contracts/job-queue.js';
import type { Db } from '../db/connect.js';
import { notFound, validationError, type FieldErrors } from '../../core/errors.js';
import { parseUrlList } from './url-list.js';
import { validateTemplate } from '../../core/batch/filename-template.js';
import { toInt } from '../options/param-kinds.js';
import { BATCH_MAX_DELAY_SECONDS, BATCH_OWN_PARAMS, BATCH_TRANSPORT_FIELDS } from './batch-params.js';
import { buildCreateRequest, createContextOf, type ScreenshotDraft } from '../options/create-request.js';
import type { QueryTree } from '../options/query-input.js';
import { collectParams, type ParamsOf } from '../options/read-params.js';
import { ApiError, fieldError } from '../../core/errors.js';
import { draftOfRecord } from '../screenshots/record-draft.js';
import type { Caller } from '../http/state.js';
import type { ScreenshotRecords } from '../screenshots/screenshot-records.js';
import type { ScreenshotService } from '../screenshots/screenshot-service.js';
import { batchAttemptCounts, batchScreenshotIds, currentBatchRecords, lastBatchAttempt, processingOfBatch } from '../screenshots/screenshot-reads.js';
import type { BatchRow } from './batch-record.js';
import type { BatchHosting } from '../apps/batch-hosting.js';
import { thumbnailFieldErrors } from './batch-zip.js';

/** The most URLs one batch may hold: the spec's scale target, and what a ZIP download stays quick with. */
export const MAX_BATCH_URLS = 10_000;

/** The text a cancelled batch carries in `error`; its queued screenshots carry the second one. */
export const BATCH_CANCELLED = 'Batch cancelled by the user';
export const SCREENSHOT_CANCELLED = 'Cancelled with its batch before it ran; nothing was charged';

export type BatchOptions = ParamsOf<typeof BATCH_OWN_PARAMS> & {
  /** per-row filenames from the file's `filename` column, by screenshot id */
  filenames?: Record<string, string>;
  invalid_lines?: { line: number; text: string; error: string }[];
};

export interface BatchInput {
  fields: QueryTree;
  fileText: string;
  idempotencyKey: string | null;
}

const now = (): number => Math.floor(Date.now() / 1000);

const stillProcessing = (): ApiError => new ApiError(409, 'CONFLICT', 'The batch is still processing: retry its failed screenshots once it has ended');

/** Batch jobs: a file of URLs becomes screenshots in the bulk tier, with progress, cancel and a ZIP. */
export class BatchService {
  private readonly finishedListeners: ((batch: BatchRow) => Promise<void>)[] = [];

  constructor(
    private readonly db: Db,
    private readonly screenshots: ScreenshotService,
    private readonly records: ScreenshotRecords,
    private readonly queue: JobQueue,
    private readonly config: Config,
    private readonly hosting: BatchHosting,
  ) {}

  /** Runs when a batch finishes (every URL has a result); failures are logged by the caller's wrapper, never fatal. */
  onFinished(listener: (batch: BatchRow) => Promise<void>): void {
    this.finishedListeners.push(listener);
  }

  async create(caller: Caller, input: BatchInput): Promise<{ batch: BatchRow; replayed: boolean }> {
    if (input.idempotencyKey) {
      const seen = await this.db('idempotency_keys').where({ credential: caller.credential, key: input.idempotencyKey, resource_type: 'batch' }).first('resource_id');
      if (seen) return { batch: await this.get(caller, Number(seen.resource_id)), replayed: true };
    }
    const fields: FieldErrors = {};
    const own = collectParams(BATCH_OWN_PARAMS, input.fields, fields);
    if (own.filename_template !== undefined) {
      const problem = validateTemplate(own.filename_template);
      if (problem) (fields.filename_template ??= []).push(problem);
    }
    for (const [k, v] of Object.entries(thumbnailFieldErrors(own) ?? {})) (fields[k] ??= []).push(...v);
    const hostingTarget = own.hosting === 's3' ? await this.hosting.plan(caller.companyId, { bucket: own.hosting_bucket, private: own.hosting_private }, fields) : null;
    if (own.hosting !== 's3' && (own.hosting_bucket !== undefined || own.hosting_private !== undefined)) (fields.hosting ??= []).push('hosting_bucket and hosting_private need hosting=s3');
    const appConfigIds = own.apps ?? [];
    if (appConfigIds.length > 0) {
      const known: number[] = (await this.db('app_configs').where({ company_id: caller.companyId, hidden: false }).whereIn('id', appConfigIds).pluck('id')).map(Number);
      const missing = appConfigIds.filter((a) => !known.includes(a));
      if (missing.length > 0) (fields.apps ??= []).push(`unknown app configuration id(s): ${missing.join(', ')}`);
    }
    const options = this.screenshotOptions(input.fields);
    if (options.country && (options.country as string[]).flatMap((c) => c.split(',')).length > 1) (fields.country ??= []).push('a batch captures from one country');

    const list = parseUrlList(input.fileText, { maxUrls: MAX_BATCH_URLS });
    if (list.entries.length === 0)
      (fields.file ??= []).push(
        list.invalid.length > 0 ? `no valid URL; first problem on line ${list.invalid[0]?.line}: ${list.invalid[0]?.error}` : 'is required: one URL per line, or CSV/TSV with a url column',
      );
    // The same rules as GET /screenshot/create, for every option the batch applies to each URL.
    const ctx = createContextOf(this.config);
    const drafts: ScreenshotDraft[] = [];
    try {
      for (const entry of list.entries) drafts.push(...buildCreateRequest({ ...options, url: [entry.url] }, ctx).drafts);
    } catch (err) {
      if (!(err instanceof ApiError) || !err.extra.fields) throw err;
      for (const [k, v] of Object.entries(err.extra.fields)) if (k !== 'url') (fields[k] ??= []).push(...v);
    }
    if (Object.keys(fields).length > 0) throw validationError(fields);

    const batchOptions: BatchOptions = { ...own, invalid_lines: list.invalid };
    let batchId = 0;
    const rows = await this.screenshots.createDrafts(caller, drafts, {
      bulk: true,
      appConfigIds,
      // The apps name each file as the ZIP would: the row's filename, else the batch's template.
      runFilenames: list.entries.map((e) => e.filename ?? own.filename_template ?? ''),
      prepare: async (trx: Knex.Transaction) => {
        const [batch] = await trx('batches')
          .insert({
            company_id: caller.companyId,
            name: own.name ?? null,
            status: 'processing',
            count: drafts.length,
            options: JSON.stringify(batchOptions),
            started: now(),
          })
          .returning('id');
        batchId = Number(batch.id);
        if (input.idempotencyKey) {
          await trx('idempotency_keys').insert({ company_id: caller.companyId, credential: caller.credential, key: input.idempotencyKey, resource_type: 'batch', resource_id: batchId });
        }
        const hostingApp = hostingTarget ? [await this.hosting.createConfig(trx, caller.companyId, batchId, hostingTarget)] : [];
        return { batch_id: batchId, appConfigIds: hostingApp };
      },
    });
    const filenames = Object.fromEntries(list.entries.flatMap((e, i) => (e.filename ? [[String(rows[i]?.id), e.filename]] : [])));
    if (Object.keys(filenames).length > 0) {
      await this.db('batches')
        .where({ id: batchId })
        .update({ options: JSON.stringify({ ...batchOptions, filenames }) });
    }
    // Screenshots that ended at once (answered from the cache, or their job could not be queued): count them now.
    for (const row of rows.filter((r) => r.status !== 'processing')) await this.onScreenshotDone(batchId, row.status === 'finished');
    return { batch: await this.get(caller, batchId), replayed: false };
  }

  /** Every field that is not the batch's own is a screenshot option; delay above 30 s is capped to 30. */
  private screenshotOptions(fields: QueryTree): QueryTree {
    const out: QueryTree = {};
    for (const [k, v] of Object.entries(fields)) {
      if (k in BATCH_OWN_PARAMS || (BATCH_TRANSPORT_FIELDS as readonly string[]).includes(k)) continue;
      out[k] = v;
    }
    // Read as the option reads it (toInt: `+45` is 45 too), so no spelling the option takes passes the cap.
    const delay = Array.isArray(out.delay) && out.delay.length === 1 && typeof out.delay[0] === 'string' ? toInt(out.delay[0]) : null;
    if (typeof delay === 'number' && delay > BATCH_MAX_DELAY_SECONDS) out.delay = [String(BATCH_MAX_DELAY_SECONDS)];
    return out;
  }

  async get(caller: Caller, id: number): Promise<BatchRow> {
    const row = await this.db('batches').where({ company_id: caller.companyId, id }).first();
    if (!row) throw notFound('Batch');
    return row as BatchRow;
  }

  async screenshotIds(caller: Caller, id: number): Promise<number[]> {
    return batchScreenshotIds(this.db, caller.companyId, id);
  }

  /**
   * Stops a batch: its queued jobs are dropped from the queue and their records end as `error` at cost 0;
   * jobs already running finish (and are charged, as they were captured). Counters are kept.
   */
  async cancel(caller: Caller, id: number): Promise<BatchRow> {
    const batch = await this.get(caller, id);
    if (batch.status !== 'processing') return batch;
    await this.db('batches').where({ id, status: 'processing' }).update({ status: 'error', error: BATCH_CANCELLED, finished: now() });
    const waiting = await processingOfBatch(this.db, caller.companyId, id);
    if (waiting.length > 0) {
      await this.queue.cancel(waiting);
      // A job that had already started when the cancel came still delivers a result: the recorder finds
      // its record no longer processing and ignores it, so it is not charged either.
      await this.records.cancel(waiting, SCREENSHOT_CANCELLED);
    }
    return this.get(caller, id);
  }

  /**
   * Captures again the screenshots of an ended batch that ended in error: each gets a new record of the
   * next attempt standing in for it (`retry_of` its first record), created through the normal path
   * (balance check, bulk tier) and charged only when it finishes. The batch is `processing` again with its
   * counters derived from its current records (the retried ones no longer count as failed), and finishes
   * as before when the last one ends. 409 while the batch is still processing; 400 when nothing failed.
   */
  async retry(caller: Caller, id: number): Promise<BatchRow> {
    const batch = await this.get(caller, id);
    if (batch.status === 'processing') throw stillProcessing();
    const failed: Record<string, unknown>[] = await currentBatchRecords(this.db, id).where({ 's.status': 'error' }).orderBy('s.id').select('s.*');
    if (failed.length === 0) throw fieldError('id', 'the batch has no failed screenshot to retry');
    const attempt = (await lastBatchAttempt(this.db, id)) + 1;
    const options = ((await this.db('batches').where({ id }).first('options'))?.options ?? {}) as BatchOptions;
    const roots = failed.map((r) => Number(r.retry_of ?? r.id));
    const drafts = failed.map((r, i) => {
      const draft = draftOfRecord(r, this.config.pricing);
      return { ...draft, fields: { ...draft.fields, attempt, retry_of: roots[i] } as typeof draft.fields };
    });
    const appConfigIds = (
      await this.db('app_runs')
        .whereIn(
          'screenshot_id',
          failed.map((r) => Number(r.id)),
        )
        .distinct('app_config_id')
        .pluck('app_config_id')
    ).map(Number);
    const rows = await this.screenshots.createDrafts(caller, drafts, {
      bulk: true,
      appConfigIds,
      runFilenames: roots.map((root) => options.filenames?.[String(root)] ?? options.filename_template ?? ''),
      prepare: async (trx: Knex.Transaction) => {
        // Counters from the records as they stand, the retried ones left out: they will count again when they end.
        const counts = (await currentBatchRecords(trx, id).groupBy('s.status').select('s.status').count('s.id as n')) as { status: string; n: string | number }[];
        const n = (status: string): number => Number(counts.find((c) => c.status === status)?.n ?? 0);
        const reopened = await trx('batches')
          .where({ id })
          .whereNot({ status: 'processing' })
          .update({ status: 'processing', error: '', finished: null, processed: n('finished'), failed: n('error') - failed.length });
        // A second retry of the same batch at the same moment: one reopens it, the other stops here.
        if (Number(reopened) === 0) throw stillProcessing();
        return { batch_id: id };
      },
    });
    for (const row of rows.filter((r) => r.status !== 'processing')) await this.onScreenshotDone(id, row.status === 'finished');
    return this.get(caller, id);
  }

  /** Each attempt's counts, from its records: the first attempt is the batch's file, each retry one more. */
  async attempts(caller: Caller, id: number): Promise<{ attempt: number; count: number; processed: number; failed: number }[]> {
    const rows = await batchAttemptCounts(this.db, caller.companyId, id);
    const byAttempt = new Map<number, { attempt: number; count: number; processed: number; failed: number }>();
    for (const r of rows) {
      const a = byAttempt.get(Number(r.attempt)) ?? { attempt: Number(r.attempt), count: 0, processed: 0, failed: 0 };
      a.count += Number(r.n);
      if (r.status === 'finished') a.processed += Number(r.n);
      if (r.status === 'error') a.failed += Number(r.n);
      byAttempt.set(a.attempt, a);
    }
    return [...byAttempt.values()];
  }

  /** Moves a batch's counters when one of its screenshots ends; the last one finishes the batch. */
  async onScreenshotDone(batchId: number, finished: boolean): Promise<void> {
    const ended = await this.db.transaction(async (trx) => {
      await trx('batches')
        .where({ id: batchId })
        .increment(finished ? 'processed' : 'failed', 1);
      return trx('batches').where({ id: batchId, status: 'processing' }).andWhereRaw('processed + failed >= count').update({ status: 'finished', finished: now() });
    });
    if (Number(ended) === 0) return;
    const batch = (await this.db('batches').where({ id: batchId }).first()) as BatchRow;
    for (const listener of this.finishedListeners) await listener(batch);
  }
}
