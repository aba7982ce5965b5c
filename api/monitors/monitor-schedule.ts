import { nextCronRun } from './monitor-params.js';

/** What the schedule of a monitor is: an interval, or a cron expression (which wins). */
export interface Schedule {
  interval_seconds: number;
  cron: string | null;
}

/**
 * The first period of a schedule strictly after `now`. An interval keeps its phase: periods are
 * `anchor + k × interval`, so a late run does not shift the later ones. However many periods were missed
 * (everything was down), the answer is after `now`: they are caught up by one run, not one each.
 */
export function nextRunAfter(schedule: Schedule, anchor: Date, now: Date): Date {
  if (schedule.cron) {
    const next = nextCronRun(schedule.cron, now);
    // A validated expression runs again; one that no longer does (a fixed date passed) waits a year.
    return next ?? new Date(now.getTime() + 365 * 24 * 3600 * 1000);
  }
  const step = schedule.interval_seconds * 1000;
  const behind = now.getTime() - anchor.getTime();
  const periods = behind < 0 ? 0 : Math.floor(behind / step) + 1;
  return new Date(anchor.getTime() + periods * step);
}

/** A new (or resumed) monitor's first run: at once for an interval, the next cron time otherwise. */
export function firstRun(schedule: Schedule, now: Date): Date {
  return schedule.cron ? nextRunAfter(schedule, now, now) : now;
}
