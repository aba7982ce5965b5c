import type { CapturePage } from './capture-adapter.js';
import { PageFault } from './page-fault.js';
import { withTimeout } from './with-timeout.js';

/**
 * How long the page's main thread may take to run a trivial script before it counts as hung. A page that
 * answers does so in milliseconds, even while it loads; one whose script never yields (`for (;;) {}`)
 * never does, and every output would then wait its whole OUTPUT_TIMEOUT_MS (30 s) for nothing, holding
 * the capture slot (issue #14: 111-279 s a record with the retries).
 */
export const RESPONSE_PROBE_MS = 3_000;

export const UNRESPONSIVE_PAGE = 'The page stopped responding: its scripts never yield (an endless loop or runaway memory), so nothing could be captured.';

/**
 * A probe that fails because the document it ran in went away (the browser's own error page replaced it, a
 * navigation is under way) got an answer of a kind: the page is there, and the capture goes on.
 */
const DOCUMENT_REPLACED = /execution context was destroyed|cannot find context|navigat/i;

/**
 * A probe that fails because the browser itself went away (killed, disconnected) says nothing of the page:
 * its error goes on as it is, so the capture is retried on a new browser (test/integration/faults.test.ts).
 */
const BROWSER_GONE = /has been closed|target closed|browser closed|disconnected|invalid session id|session deleted/i;

/**
 * Rejects with UNRESPONSIVE_PAGE (a PageFault: not retried) when the page does not answer a trivial script
 * within RESPONSE_PROBE_MS, or fails it for any reason but a replaced document (a renderer that ran out of
 * memory and crashed).
 */
export async function expectResponsive(page: Pick<CapturePage, 'evaluate'>): Promise<void> {
  const answered = page
    .evaluate(() => 1)
    .then(
      () => undefined,
      (error: unknown) => {
        if (BROWSER_GONE.test(String(error))) throw error;
        if (!DOCUMENT_REPLACED.test(String(error))) throw new PageFault(UNRESPONSIVE_PAGE, 'unresponsive');
      },
    );
  await withTimeout(answered, RESPONSE_PROBE_MS, UNRESPONSIVE_PAGE).catch((error: unknown) => {
    if (BROWSER_GONE.test(String(error))) throw error;
    throw error instanceof PageFault ? error : new PageFault(UNRESPONSIVE_PAGE, 'unresponsive');
  });
}
