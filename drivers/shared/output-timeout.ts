import { withTimeout } from './with-timeout.js';

/**
 * Time allowed to PRODUCE one output (a screenshot, the PDF, the HTML) once waiting is over. It is
 * separate from the job's deadline on purpose: when max_wait passes the capture still has to take
 * its pictures. A full-page PNG of a very long page takes a few seconds on two cores; after 30 s the
 * browser is hung, and the error lets the pool replace it.
 */
export const OUTPUT_TIMEOUT_MS = 30_000;

/** `work` (an output, an in-page script's result) within the output time limit: "`what` timed out" after it. */
export function withinOutputTime<R>(work: Promise<R>, what: string): Promise<R> {
  return withTimeout(work, OUTPUT_TIMEOUT_MS, `${what} timed out`);
}
