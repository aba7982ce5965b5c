import type { WaitUntil } from '../../core/capture-spec.js';
import { SETTLE_WATCH_KEY, settleWatchSource } from '../page-scripts/settle-watch.js';
import { waitSettled, type WaitSettledOptions } from '../page-scripts/wait-settled.js';
import type { CapturePage } from './capture-adapter.js';
import type { Deadline } from './deadline.js';
import { errorText } from './error-text.js';

type SettleRule = Omit<WaitSettledOptions, 'capMs' | 'watchKey'>;

/**
 * What each wait_until waits for after `load` (drivers/page-scripts/wait-settled.ts); null: nothing.
 * - settled: no request starting or ending and no DOM or layout change for 20 ms, and 2 animation frames
 *   rendered since the last of them. The frames, not the window, bridge chained work: a loader's next
 *   module, a fetch's render, an observer's callback or a load handler's animation frame all run within the
 *   event-loop turns of those frames. The settle watch records the frames after `load`, so a page already
 *   settled when the wait starts is answered at once (make bench-settle measured: see docs/performance.md).
 *   An IntersectionObserver's first callback is waited for too, up to 2 s after its observe(): on a busy
 *   machine it ran after those 2 frames, and a lazy gallery was captured before its loader had asked for
 *   a single image (extract.test.ts's settle corpus, two test files at once).
 * - networkidle: 500 ms without a request, as Playwright and Puppeteer define it; nothing visual.
 */
export const SETTLE_RULES: Record<WaitUntil, SettleRule | null> = {
  domcontentloaded: null,
  load: null,
  settled: { quietMs: 20, frames: 2, visual: true, observerFirstCallMs: 2_000 },
  networkidle: { quietMs: 500, frames: 0, visual: false, observerFirstCallMs: 0 },
};

/** A page function that runs longer than its cap has hung (a blocked main thread, a dialog): give up then. */
const EVALUATE_SLACK_MS = 1_000;
/** After a failed wait (the document went away in a script redirect), look again this soon. */
const RETRY_MS = 100;

/** Whether the wait needs the settle watch, installed before the navigation. */
export const needsSettleWatch = (waitUntil: WaitUntil, capMs: number): boolean => SETTLE_RULES[waitUntil] !== null && capMs > 0;

/** Installs the settle watch's init script; a page without it is judged by Resource Timing alone. */
export async function installSettleWatch(page: CapturePage, warnings: string[]): Promise<void> {
  await page.addInitScript(settleWatchSource()).catch((error: unknown) => {
    warnings.push(`Requests in flight could not be watched; the settle wait relied on finished requests only: ${errorText(error)}.`);
  });
}

/**
 * The settle phase: after `load`, waits until the page has settled (wait_until), at most `capMs` and
 * never past the job's deadline. Waiting is idle time in the page (animation frames and timers), not
 * CPU. A page still busy at the cap is captured as it is, with a warning that says what kept it busy.
 * A script navigation after load destroys the page function's context; the wait then starts over on the
 * new document (which has the watch too), within the same cap.
 * Returns whether the page answered (its main thread ran the wait to the end): the pipeline's responsiveness
 * probe (page-responds.ts) has then had its answer.
 */
export async function settlePage(page: CapturePage, waitUntil: WaitUntil, capMs: number, deadline: Deadline, warnings: string[]): Promise<boolean> {
  const rule = SETTLE_RULES[waitUntil];
  const budget = Math.min(capMs, deadline.remaining());
  if (rule === null || budget <= 0) return false;
  const until = Date.now() + budget;
  let failure: unknown = null;
  for (let left = budget; left > 0; left = until - Date.now()) {
    try {
      const result = await deadline.race(page.evaluate(waitSettled, { ...rule, capMs: left, watchKey: SETTLE_WATCH_KEY }), 'the settle wait', left + EVALUATE_SLACK_MS);
      if (!result.settled) warnings.push(`The page had not settled within ${(budget / 1000).toFixed(1)} s (${result.busy.join(', ')}); captured what was there.`);
      return true;
    } catch (error) {
      deadline.check();
      failure = error;
      await deadline.sleep(Math.min(RETRY_MS, Math.max(0, until - Date.now())));
    }
  }
  warnings.push(`The page could not be watched until it settled; captured what was there (${errorText(failure)}).`);
  return false;
}
