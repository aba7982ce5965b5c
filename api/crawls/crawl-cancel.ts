import type { JobQueue } from '../../core/contracts/job-queue.js';
import type { Db } from '../../core/db/connect.js';
import type { ScreenshotEvents } from '../farm/screenshot-events.js';
import type { CrawlFrontier } from './crawl-frontier.js';

/** The error of a crawl page whose job was dropped from the queue before it ran. */
export const PAGE_CANCELLED = 'Cancelled with its crawl before it was captured; nothing was charged';

/**
 * Drops the queued jobs of a stopped crawl. A dropped page never ran: its record becomes `error` at
 * cost 0 (it was never charged: only finished records are) and counts as failed. A job already running
 * is not dropped by the queue; it ends with its own result and is counted then. The caller holds the
 * crawl's lock.
 */
export async function dropQueuedPages(db: Db, queue: JobQueue, frontier: CrawlFrontier, events: ScreenshotEvents, crawlId: number): Promise<number> {
  let dropped = 0;
  for (const page of await frontier.queued(crawlId)) {
    // One id per call: the queue answers how many it dropped, and only a dropped one may be ended here.
    if ((await queue.cancel([page.screenshotId])) === 0) continue;
    await db.transaction(async (trx) => {
      await trx('screenshots').where({ id: page.screenshotId, status: 'processing' })
        .update({ status: 'error', error: PAGE_CANCELLED, cost: 0, finished_at: trx.fn.now() });
      // Apps waited for a screenshot that will never exist.
      await trx('app_runs').where({ screenshot_id: page.screenshotId, status: 'pending' })
        .update({ status: 'error', error: 'The screenshot was cancelled with its crawl', updated_at: trx.fn.now() });
      if (await frontier.complete(trx, crawlId, page.screenshotId)) await trx('crawls').where({ id: crawlId }).increment('failed', 1);
    });
    events.finished(page.screenshotId);
    dropped += 1;
  }
  return dropped;
}
