import type { QueueTuning } from './queue-tuning.js';

/**
 * How long to wait before delivering a job again after its `attempt`-th delivery failed:
 * exponential (base, 2×base, 4×base…) so a struggling site or agent gets more room each time, capped.
 */
export function retryDelayMs(attempt: number, tuning: Pick<QueueTuning, 'retryBaseMs' | 'retryMaxMs'>): number {
  const exponent = Math.max(0, attempt - 1);
  // 2^30 × any sane base overflows the cap long before it overflows a double; clamp the exponent anyway.
  return Math.min(tuning.retryMaxMs, tuning.retryBaseMs * 2 ** Math.min(exponent, 30));
}
