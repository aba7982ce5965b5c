import { BROWSERS, type BrowserName } from '../../core/capture-spec.js';
import type { JobQueue } from '../../core/contracts/job-queue.js';
import type { Db } from '../db/connect.js';
import { capturesPerBrowser } from '../screenshots/screenshot-reads.js';

/**
 * The window throughput and error rate are measured over: long enough that a quiet farm's few captures
 * give a rate, short enough that a browser that starts failing shows within minutes.
 */
export const ACTIVITY_WINDOW_MINUTES = 15;

/** One browser of the farm as the dashboard's Nodes page shows it. */
export interface BrowserActivity {
  browser: BrowserName;
  /** jobs waiting in the queue (not yet taken) */
  queued: number;
  /** how long the oldest of them has waited (0: none waits) */
  oldest_wait_seconds: number;
  /** captures that ended on a node within the window, and how many of them in error */
  captures: number;
  errors: number;
  /** captures per minute over the window */
  per_minute: number;
  /** errors / captures over the window (0 when there was no capture) */
  error_rate: number;
}

/**
 * Queue depth and age per browser (the queue's, any mode), and throughput and error rate per browser over
 * the last ACTIVITY_WINDOW_MINUTES from the records, so every API process of a farm answers the same.
 * A capture is a record a node ended (node_id set): cache hits (routing `cache:…`, their node is the
 * source's) and records ended without running (cancelled, never queued) are not captures.
 */
export async function browserActivity(db: Db, queue: JobQueue): Promise<BrowserActivity[]> {
  const [depth, ages, ended] = await Promise.all([queue.depth(), queue.oldestWaiting(), capturesPerBrowser(db, ACTIVITY_WINDOW_MINUTES)]);
  return BROWSERS.map((browser) => {
    const row = ended.find((r) => r.browser === browser);
    const captures = Number(row?.captures ?? 0);
    const errors = Number(row?.errors ?? 0);
    return {
      browser,
      queued: depth[browser] ?? 0,
      oldest_wait_seconds: Math.round(Math.max(0, ...ages.filter((a) => a.browser === browser).map((a) => a.seconds))),
      captures,
      errors,
      per_minute: Math.round((captures / ACTIVITY_WINDOW_MINUTES) * 100) / 100,
      error_rate: captures === 0 ? 0 : Math.round((errors / captures) * 1000) / 1000,
    };
  });
}
