import { hostname } from 'node:os';

/** The retry policy both queue implementations share, so embedded and distributed mode end jobs alike. */
export interface QueueTuning {
  /** deliveries a job gets; after the last one fails the queue publishes an `error` result for it */
  maxDeliveries: number;
  /** delay before the first redelivery of a retried job; it doubles with each further attempt */
  retryBaseMs: number;
  /** the longest delay between two attempts, whatever the attempt number */
  retryMaxMs: number;
  /** the node the queue names on the error results it publishes itself (exhausted or failed jobs) */
  node: { id: string; host: string };
}

/**
 * Defaults. 5 deliveries lets a job survive a couple of agent crashes and transient page failures
 * without looping for long; 2 s then doubling (2, 4, 8, 16 s) spreads the retries over half a minute,
 * long enough for a flapping site or a restarting agent; 60 s caps the wait should maxDeliveries grow.
 */
export function queueTuning(overrides: Partial<QueueTuning> = {}): QueueTuning {
  const tuning: QueueTuning = {
    maxDeliveries: 5,
    retryBaseMs: 2_000,
    retryMaxMs: 60_000,
    node: { id: 'queue', host: hostname() },
    ...overrides,
  };
  if (!Number.isInteger(tuning.maxDeliveries) || tuning.maxDeliveries < 1) throw new Error(`maxDeliveries must be a positive integer, got ${tuning.maxDeliveries}`);
  if (!(tuning.retryBaseMs >= 0) || !(tuning.retryMaxMs >= tuning.retryBaseMs)) throw new Error('retry delays must satisfy 0 <= retryBaseMs <= retryMaxMs');
  return tuning;
}
