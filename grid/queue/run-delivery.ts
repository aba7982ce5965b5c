import { isWithdrawn, type CaptureJob, type CaptureResult, type JobHandler, type JobOutcome } from '../../core/contracts/job-queue.js';
import type { ErrorCause } from '../../core/error-cause.js';
import type { Logger } from '../../core/logger.js';
import { retryDelayMs } from './backoff.js';
import { giveUpResult } from './give-up-result.js';
import type { QueueTuning } from './queue-tuning.js';

/** One delivery of a job, as the queue implementation settles it. */
export interface Delivery {
  job: CaptureJob;
  /** 1 for the first delivery */
  attempt: number;
  /** the job is done: remove it from the queue */
  ack(): Promise<void>;
  /** deliver the job again after `delayMs` */
  retry(delayMs: number): Promise<void>;
  /** the job has ended (its error result is published): never deliver it again */
  terminate(): Promise<void>;
  /** the job is still being worked on */
  working(): void;
}

export interface DeliveryContext {
  handler: JobHandler;
  tuning: QueueTuning;
  publishResult(result: CaptureResult): Promise<void>;
  /** this delivery's signal: the queue closing, or the job withdrawn (JobQueue.withdraw) */
  signal: AbortSignal;
  log: Logger;
}

/**
 * Runs the handler on one delivery and applies its outcome, the same way for every queue:
 * - `done`: ack (the handler published its own result);
 * - `retry` (or the handler threw): redeliver after a growing delay, unless this was the last delivery;
 * - `fail`, or `retry` on the last delivery, or a delivery past the last one (earlier ones were lost
 *   with their agent): the queue publishes the job's `error` result and terminates it, so it ends once;
 * - whatever the outcome, a job withdrawn meanwhile (its record deleted) is terminated without a result.
 * Never rejects: a queue that cannot be reached leaves the job to its redelivery.
 */
export async function runDelivery(delivery: Delivery, ctx: DeliveryContext): Promise<void> {
  const { job, attempt } = delivery;
  const max = ctx.tuning.maxDeliveries;
  try {
    if (attempt > max) {
      await giveUp(delivery, ctx, `gave up after ${max} attempts: the last delivery was never acknowledged (agent lost or ack deadline missed)`);
      return;
    }
    const outcome = await handle(delivery, ctx);
    if (isWithdrawn(ctx.signal)) {
      // Nobody wants its result, nor a retry: the record it was for no longer exists.
      await delivery.terminate();
    } else if (outcome.kind === 'done') {
      await delivery.ack();
    } else if (outcome.kind === 'fail') {
      await giveUp(delivery, ctx, outcome.reason, outcome.cause);
    } else if (attempt >= max) {
      await giveUp(delivery, ctx, `gave up after ${attempt} attempts: ${outcome.reason}`);
    } else {
      await delivery.retry(retryDelayMs(attempt, ctx.tuning));
    }
  } catch (err) {
    ctx.log.error({ err, id: job.spec.id, attempt }, 'queue: could not settle a job; it will be redelivered');
  }
}

async function handle(delivery: Delivery, ctx: DeliveryContext): Promise<JobOutcome> {
  try {
    return await ctx.handler(delivery.job, { working: () => delivery.working(), attempt: delivery.attempt, signal: ctx.signal });
  } catch (err) {
    // A handler that throws has not decided the job's fate; treat it as retryable so a bug or a crash
    // of one browser does not lose the job, and maxDeliveries still bounds it.
    return { kind: 'retry', reason: `handler threw: ${err instanceof Error ? err.message : String(err)}` };
  }
}

async function giveUp(delivery: Delivery, ctx: DeliveryContext, error: string, cause?: ErrorCause): Promise<void> {
  // Publish first: if publishing fails the job is not terminated, so a later delivery publishes it.
  await ctx.publishResult(giveUpResult(delivery.job, error, ctx.tuning.node, cause));
  await delivery.terminate();
}
