import type { JobQueue } from '../../core/contracts/job-queue.js';
import type { ScreenshotRecords } from '../screenshots/screenshot-records.js';
import type { CrawlFrontier } from './crawl-frontier.js';

/** The error of a crawl page whose job was dropped from the queue before it ran. */
export const PAGE_CANCELLED = 'Cancelled with its crawl before it was captured; nothing was charged';

/**
 * Drops the queued jobs of a stopped crawl. A dropped page never ran: its record becomes `error` at
 * cost 0 (it was never charged: only finished records are) and counts as failed. A job already running
 * is not dropped by the queue; it ends with its own result and is counted then. The caller holds the
 * crawl's lock.
 */
export async function dropQueuedPages(records: ScreenshotRecords, queue: JobQueue, frontier: CrawlFrontier, crawlId: number): Promise<number> {
  let dropped = 0;
  for (const page of await frontier.queued(crawlId)) {
    // One id per call: the queue answers how many it dropped, and only a dropped one may be ended here.
    if ((await queue.cancel([page.screenshotId])) === 0) continue;
    // The page is counted in the transaction that ends its record.
    await records.cancel([page.screenshotId], PAGE_CANCELLED, async (trx) => {
      if (await frontier.complete(trx, crawlId, page.screenshotId)) await trx('crawls').where({ id: crawlId }).increment('failed', 1);
    });
    dropped += 1;
  }
  return dropped;
}
