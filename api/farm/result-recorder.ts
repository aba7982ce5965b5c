import type { Db } from '../../core/db/connect.js';
import type { CaptureResult } from '../../core/contracts/job-queue.js';
import type { ObjectStore } from '../../core/contracts/object-store.js';
import type { Logger } from '../../core/logger.js';
import { recordCredit } from '../accounts/ledger.js';
import type { ScreenshotEvents } from './screenshot-events.js';
import { deleteUnreferencedObjects } from './stored-files.js';

/** The ledger reason of a screenshot's debit; with the screenshot id it is unique, so it happens once. */
export const SCREENSHOT_DEBIT = 'screenshot';

export type RecordOutcome = 'applied' | 'duplicate' | 'orphan';

/** Hooks run after a result is applied (batches, crawls, apps); they never fail the recording. */
export type ResultListener = (screenshot: {
  id: number; companyId: number; status: 'finished' | 'error'; batchId: number | null; crawlId: number | null; links: string[];
  /** app runs of the screenshot that were waiting for it and are now queued */
  appRunsQueued: number;
}) => Promise<void>;

/**
 * The only writer of capture results. Applying a result is idempotent: a redelivered or duplicated
 * result finds the record no longer `processing` and changes nothing. A finished record is charged
 * its cost once, through the ledger; an error costs nothing (its cost becomes 0).
 */
export class ResultRecorder {
  private readonly listeners: ResultListener[] = [];

  constructor(private readonly db: Db, private readonly store: ObjectStore, private readonly events: ScreenshotEvents, private readonly log: Logger) {}

  onApplied(listener: ResultListener): void {
    this.listeners.push(listener);
  }

  async apply(result: CaptureResult): Promise<RecordOutcome> {
    const outcome = await this.db.transaction(async (trx) => {
      const row = await trx('screenshots').where({ id: result.id }).forUpdate().first('id', 'company_id', 'status', 'cost', 'user_agent', 'batch_id', 'crawl_id');
      if (!row) return { kind: 'orphan' as const };
      if (row.status !== 'processing') return { kind: 'duplicate' as const };
      const finished = result.status === 'finished';
      await trx('screenshots').where({ id: result.id }).update({
        status: result.status,
        error: finished ? '' : result.error || 'The capture failed',
        cost: finished ? row.cost : 0,
        final_url: result.finalUrl,
        final_urls: JSON.stringify(result.finalUrls),
        response_code: result.responseCode,
        links: JSON.stringify(result.links),
        trackers: JSON.stringify(result.trackers),
        // The record says which User-Agent was really used, when the request did not set one.
        user_agent: row.user_agent || result.userAgent,
        // After the request's own warnings (an ignored parameter), written when the record was created.
        warnings: trx.raw("warnings || ?::jsonb", [JSON.stringify(result.warnings)]),
        timings: JSON.stringify(result.timings),
        browser_info: result.browserInfo,
        node_id: result.node.id,
        finished_at: trx.fn.now(),
      });
      if (result.files.length > 0) {
        await trx('screenshot_files').insert(result.files.map((f) => ({
          company_id: row.company_id, screenshot_id: result.id, kind: f.kind, shot: f.shot, storage_key: f.key, content_type: f.contentType, size_bytes: f.size,
        })));
      }
      if (finished && Number(row.cost) > 0) {
        await recordCredit(trx, { companyId: Number(row.company_id), delta: -Number(row.cost), reason: SCREENSHOT_DEBIT, screenshotId: result.id });
      }
      // Apps wait for the screenshot: now that it is done they can be queued.
      const appRunsQueued = await trx('app_runs').where({ screenshot_id: result.id, status: 'pending' }).update({ status: 'queued', updated_at: trx.fn.now() });
      return { kind: 'applied' as const, appRunsQueued, companyId: Number(row.company_id), batchId: row.batch_id === null ? null : Number(row.batch_id), crawlId: row.crawl_id === null ? null : Number(row.crawl_id) };
    });

    if (outcome.kind !== 'applied') {
      // The record was deleted, or ended without this result (cancelled with its batch, or this is a
      // redelivery). Files no record refers to have nowhere to belong; a redelivery's files are the
      // applied result's own, still referenced, and stay.
      await deleteUnreferencedObjects(this.db, this.store, result.files.map((f) => f.key)).catch((err: unknown) => this.log.warn({ err, id: result.id }, 'could not delete the files of an unused result'));
      return outcome.kind;
    }
    this.events.finished(result.id);
    for (const listener of this.listeners) {
      await listener({ id: result.id, companyId: outcome.companyId, status: result.status, batchId: outcome.batchId, crawlId: outcome.crawlId, links: result.links, appRunsQueued: outcome.appRunsQueued })
        .catch((err: unknown) => this.log.error({ err, id: result.id }, 'a result listener failed'));
    }
    return 'applied';
  }
}
