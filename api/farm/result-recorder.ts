import type { CaptureResult } from '../../core/contracts/job-queue.js';
import type { Logger } from '../../core/logger.js';
import type { EndedByResult, RecordOutcome, ScreenshotRecords } from '../screenshots/screenshot-records.js';

/** Hooks run after a result is applied (batches, crawls); they never fail the recording. */
export type ResultListener = (screenshot: EndedByResult) => Promise<void>;

/**
 * Results recorded by one statement at most: the statement's JSON input stays small (a result is ~1 kB, its
 * links aside), and a batch that must be retried one by one (below) stays short. A consumer pulls 16 at a time.
 */
export const RESULTS_PER_STATEMENT = 64;

type Applied = { outcome: RecordOutcome; ended?: EndedByResult };

interface Waiting {
  result: CaptureResult;
  resolve: (applied: Applied) => void;
  reject: (err: unknown) => void;
}

/**
 * The queue's result handler: the record applies the result (ScreenshotRecords, which charges once,
 * settles the app runs and wakes the waiters), then the batch or crawl it belongs to moves on.
 *
 * Results handed in together are recorded together (issue 30): the queue's consumer applies what one fetch
 * brought concurrently, so `apply` keeps each result until the statement under way (if any) is done and then
 * records all that wait in one statement, up to RESULTS_PER_STATEMENT. At 300 captures/s one statement per
 * result was most of the api's and Postgres' CPU per capture. A second result of one record waits for the next
 * statement (a statement takes distinct records). Should a statement fail (one result the database refuses),
 * each of its results is recorded alone, so only the refused one fails (and the queue delivers it again).
 */
export class ResultRecorder {
  private readonly listeners: ResultListener[] = [];
  private waiting: Waiting[] = [];
  private recording = false;

  constructor(
    private readonly records: ScreenshotRecords,
    private readonly log: Logger,
  ) {}

  onApplied(listener: ResultListener): void {
    this.listeners.push(listener);
  }

  async apply(result: CaptureResult): Promise<RecordOutcome> {
    const { outcome, ended } = await new Promise<Applied>((resolve, reject) => {
      this.waiting.push({ result, resolve, reject });
      this.startRecording();
    });
    if (!ended) return outcome;
    for (const listener of this.listeners) {
      await listener(ended).catch((err: unknown) => this.log.error({ err, id: result.id }, 'a result listener failed'));
    }
    return outcome;
  }

  private startRecording(): void {
    if (this.recording) return;
    this.recording = true;
    // setImmediate: the results a fetch hands in during this turn of the event loop join the first statement.
    setImmediate(() => void this.recordWaiting());
  }

  private async recordWaiting(): Promise<void> {
    while (this.waiting.length > 0) await this.recordBatch(this.takeBatch());
    this.recording = false;
  }

  /** The oldest waiting results of distinct records, up to RESULTS_PER_STATEMENT; the others keep their turn. */
  private takeBatch(): Waiting[] {
    const batch: Waiting[] = [];
    const rest: Waiting[] = [];
    const ids = new Set<number>();
    for (const w of this.waiting) {
      if (batch.length < RESULTS_PER_STATEMENT && !ids.has(w.result.id)) {
        ids.add(w.result.id);
        batch.push(w);
      } else rest.push(w);
    }
    this.waiting = rest;
    return batch;
  }

  private async recordBatch(batch: Waiting[]): Promise<void> {
    try {
      const answers = await this.records.applyResults(batch.map((w) => w.result));
      batch.forEach((w, i) => w.resolve(answers[i] as Applied));
    } catch (err) {
      if (batch.length === 1) {
        batch[0]?.reject(err);
        return;
      }
      this.log.warn({ err, ids: batch.map((w) => w.result.id) }, 'a batch of results could not be recorded together; recording each alone');
      for (const w of batch) {
        // One after the other, as the batch would have been: the retry adds no concurrency of its own.
        await this.records.applyResults([w.result]).then((answers) => w.resolve(answers[0] as Applied), w.reject);
      }
    }
  }
}
