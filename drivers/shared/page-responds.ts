import type { CapturePage } from './capture-adapter.js';
import { withTimeout } from './with-timeout.js';

/**
 * How long the page's main thread may take to run a trivial script before it counts as hung. A page that
 * answers does so in milliseconds, even while it loads; one whose script never yields (`for (;;) {}`)
 * never does, and every output would then wait its whole OUTPUT_TIMEOUT_MS (30 s) for nothing, holding
 * the capture slot (issue #14: 111-279 s a record with the retries).
 */
export const RESPONSE_PROBE_MS = 3_000;

export const UNRESPONSIVE_PAGE = 'The page stopped responding: its scripts never yield (an endless loop or runaway memory), so nothing could be captured';

/**
 * Rejects with UNRESPONSIVE_PAGE when the page does not answer a trivial script within RESPONSE_PROBE_MS.
 * Only silence counts: a probe that fails at once (the browser's own error page replaced the document and
 * destroyed the script's context, a navigation under way) got an answer, and the capture goes on.
 */
export async function expectResponsive(page: Pick<CapturePage, 'evaluate'>): Promise<void> {
  const answered = page.evaluate(() => 1).then(() => undefined, () => undefined);
  await withTimeout(answered, RESPONSE_PROBE_MS, UNRESPONSIVE_PAGE);
}
