/**
 * Subscription periods are calendar months in UTC, counted from the subscription's anchor: period n
 * runs from anchor + n months to anchor + n + 1 months. Counting from the anchor (not from the last
 * period's end) keeps a subscription started on the 31st on the last day of short months and back on
 * the 31st afterwards, instead of drifting to the 28th for good.
 */
export function addMonthsUtc(anchor: Date, months: number): Date {
  const year = anchor.getUTCFullYear();
  const month = anchor.getUTCMonth() + months;
  // Day 0 of the following month is the last day of the target month.
  const lastDay = new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
  return new Date(Date.UTC(year, month, Math.min(anchor.getUTCDate(), lastDay), anchor.getUTCHours(), anchor.getUTCMinutes(), anchor.getUTCSeconds(), anchor.getUTCMilliseconds()));
}

/** The end of period `n` (0-based) of a subscription anchored at `anchor`. */
export function periodEnd(anchor: Date, n: number): Date {
  return addMonthsUtc(anchor, n + 1);
}

/**
 * The ledger reason of a period's credit grant. It is unique per subscription and period (a unique
 * index on `plan:` reasons enforces it), which is what makes the grant happen once per period.
 */
export function periodGrantReason(subscriptionId: number, periodStart: Date): string {
  return `plan:${subscriptionId}:${periodStart.toISOString()}`;
}

/**
 * The ledger reason of an upgrade's prorated grant within a period: a `plan:` reason too, so the same
 * unique index allows one per subscription, period and plan upgraded to.
 */
export function upgradeGrantReason(subscriptionId: number, periodStart: Date, planId: string): string {
  return `${periodGrantReason(subscriptionId, periodStart)}:upgrade:${planId}`;
}
