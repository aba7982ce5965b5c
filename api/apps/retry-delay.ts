/** No retry waits longer than an hour: a receiver that is down for hours is better served by a bounded schedule. */
const MAX_DELAY_SECONDS = 3600;
/** ±25 % jitter spreads the retries of many runs that failed together (a receiver outage) over time. */
const JITTER = 0.25;

/** Exponential backoff: base × 2^(attempt − 1), jittered, capped. `attempt` is the attempt that just failed (1 = first). */
export function retryDelaySeconds(baseSeconds: number, attempt: number, random: () => number = Math.random): number {
  const exponential = baseSeconds * 2 ** Math.max(0, attempt - 1);
  return Math.min(MAX_DELAY_SECONDS, exponential * (1 - JITTER + 2 * JITTER * random()));
}
