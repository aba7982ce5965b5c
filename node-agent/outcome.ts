import type { CaptureOutput } from '../core/capture-spec.js';

/**
 * Whether a capture produced a record worth keeping. A page that could not be reached (no HTTP answer)
 * or gave no image ends as `error`, which costs nothing; an HTTP error page (404, 500) is still a
 * faithful screenshot of what the site answered, so it is `finished` with its response_code.
 */
export function captureVerdict(output: CaptureOutput): { status: 'finished' } | { status: 'error'; error: string } {
  if (output.responseCode === null) {
    const why = output.warnings.find((w) => /reach|resolve|refused|navigat|timed out|blocked|ERR_/i.test(w)) ?? output.warnings[0] ?? 'no response';
    return { status: 'error', error: `The page could not be reached: ${why}` };
  }
  if (output.images.length === 0) return { status: 'error', error: `No image could be captured: ${output.warnings[0] ?? 'unknown reason'}` };
  return { status: 'finished' };
}
