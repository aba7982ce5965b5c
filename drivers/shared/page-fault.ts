import type { ErrorCause } from '../../core/error-cause.js';

/**
 * A capture that failed because of what the page did (it stopped responding, it used more memory than the
 * farm allows), not because of the farm: the same page on the same terms would do it again, so it is not
 * retried (node-agent/outcome.ts). `message` is the record's `error`, one plain sentence; `errorCause` its
 * stable code.
 */
export class PageFault extends Error {
  constructor(
    message: string,
    readonly errorCause: ErrorCause,
  ) {
    super(message);
    this.name = 'PageFault';
  }
}
