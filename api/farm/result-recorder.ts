import type { CaptureResult } from '../../core/contracts/job-queue.js';
import type { Logger } from '../../core/logger.js';
import type { EndedByResult, RecordOutcome, ScreenshotRecords } from '../screenshots/screenshot-records.js';

/** Hooks run after a result is applied (batches, crawls); they never fail the recording. */
export type ResultListener = (screenshot: EndedByResult) => Promise<void>;

/**
 * The queue's result handler: the record applies the result (ScreenshotRecords, which charges once,
 * settles the app runs and wakes the waiters), then the batch or crawl it belongs to moves on.
 */
export class ResultRecorder {
  private readonly listeners: ResultListener[] = [];

  constructor(
    private readonly records: ScreenshotRecords,
    private readonly log: Logger,
  ) {}

  onApplied(listener: ResultListener): void {
    this.listeners.push(listener);
  }

  async apply(result: CaptureResult): Promise<RecordOutcome> {
    const { outcome, ended } = await this.records.applyResult(result);
    if (!ended) return outcome;
    for (const listener of this.listeners) {
      await listener(ended).catch((err: unknown) => this.log.error({ err, id: result.id }, 'a result listener failed'));
    }
    return outcome;
  }
}
