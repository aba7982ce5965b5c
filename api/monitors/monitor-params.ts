import { Cron } from 'croner';
import { MONITOR_MIN_INTERVAL_SECONDS } from '../../core/config/settings.js';
import { z } from 'zod';
import { DEFAULT_PAGE_SIZE, idParam, MAX_PAGE_SIZE } from '../options/endpoint-params.js';
import { custom, int, num, text } from '../options/param-kinds.js';
import type { QueryValue } from '../options/query-input.js';
import { MAX_URL_LENGTH, normaliseTargetUrl } from '../options/target-url.js';

/** The users' floor on a monitor's period: five minutes (tests may lower it, see SHOTFARM_TEST_MONITOR_MIN_INTERVAL_SECONDS). */
export { MONITOR_MIN_INTERVAL_SECONDS };
/** A month: a monitor that runs less often is better served by a calendar. */
export const MONITOR_MAX_INTERVAL_SECONDS = 31 * 24 * 3600;
/** Percent of changed pixels above which a run counts as a change, when the monitor does not say. */
export const DEFAULT_THRESHOLD_PERCENT = 1;
/** Regions a monitor ignores: enough for the banners and clocks of one page. */
export const MAX_IGNORE_REGIONS = 20;
const MAX_SELECTOR_LENGTH = 500;
const MAX_BOX_SIDE = 100_000;

/** A region of the page in CSS pixels from its top-left corner. */
export interface IgnoreBox {
  x: number;
  y: number;
  width: number;
  height: number;
}
/** What a monitor ignores: elements (CSS selectors, hidden at capture time in every run) or boxes. */
export type IgnoreRegion = { selector: string } | { box: IgnoreBox };

const boxSchema = z
  .object({
    x: z.number().int().min(0).max(MAX_BOX_SIDE),
    y: z.number().int().min(0).max(MAX_BOX_SIDE),
    width: z.number().int().min(1).max(MAX_BOX_SIDE),
    height: z.number().int().min(1).max(MAX_BOX_SIDE),
  })
  .strict();
// A selector ends up inside a style sheet: braces, `<` and control characters could leave its rule.
const selectorSchema = z
  .string()
  .min(1)
  .max(MAX_SELECTOR_LENGTH)
  .regex(/^[^{}<\\\x00-\x1f\x7f]+$/);
const regionSchema = z.union([selectorSchema, boxSchema]);

const oneString = (raw: QueryValue): string | null => (Array.isArray(raw) && raw.length === 1 && typeof raw[0] === 'string' ? raw[0] : null);

/**
 * `ignore`: CSS selectors and boxes {x, y, width, height}, as a JSON array (a JSON body's list, or one
 * query value), or as repeated selector values.
 */
export function readIgnore(raw: QueryValue): { ok: true; value: IgnoreRegion[] } | { ok: false; messages: string[] } {
  if (!Array.isArray(raw) || raw.some((v) => typeof v !== 'string')) return { ok: false, messages: ['must be a JSON array of CSS selectors and {x, y, width, height} boxes'] };
  const items: unknown[] = [];
  for (const value of raw as string[]) {
    const trimmed = value.trim();
    if (trimmed.startsWith('[') || trimmed.startsWith('{')) {
      try {
        const parsed: unknown = JSON.parse(trimmed);
        items.push(...(Array.isArray(parsed) ? parsed : [parsed]));
      } catch {
        return { ok: false, messages: ['is not valid JSON'] };
      }
    } else if (trimmed !== '') items.push(trimmed);
  }
  if (items.length > MAX_IGNORE_REGIONS) return { ok: false, messages: [`must have at most ${MAX_IGNORE_REGIONS} regions`] };
  const out: IgnoreRegion[] = [];
  for (const [i, item] of items.entries()) {
    const parsed = regionSchema.safeParse(item);
    if (!parsed.success) return { ok: false, messages: [`item ${i + 1} must be a CSS selector (without { } < or \\) or a box {x, y, width, height} of whole pixels`] };
    out.push(typeof parsed.data === 'string' ? { selector: parsed.data } : { box: parsed.data });
  }
  return { ok: true, value: out };
}

/** A cron expression's next run after `from` (UTC), or null when it never runs again. */
export function nextCronRun(expression: string, from: Date): Date | null {
  return new Cron(expression, { timezone: 'UTC', paused: true }).nextRun(from);
}

/** How many runs of a cron expression are looked at to find its shortest gap: a whole cycle of any minute or hour list. */
const CRON_RUNS_LOOKED_AT = 12;

/**
 * Checks a cron expression: it must parse, run again, and never run twice within `minSeconds`.
 * The answer is its shortest gap between two runs (the most often it runs), or the problem.
 */
export function readCronSchedule(expression: string, minSeconds: number): { ok: true; shortestGapSeconds: number } | { ok: false; message: string } {
  let runs: Date[];
  try {
    runs = new Cron(expression, { timezone: 'UTC', paused: true }).nextRuns(CRON_RUNS_LOOKED_AT, new Date());
  } catch (err) {
    return { ok: false, message: `is not a cron expression (${err instanceof Error ? err.message : String(err)})` };
  }
  if (runs.length === 0) return { ok: false, message: 'never runs' };
  // One run left (a fixed date): it runs once, as rarely as anything can.
  let shortest = Number.POSITIVE_INFINITY;
  for (let i = 1; i < runs.length; i++) shortest = Math.min(shortest, ((runs[i] as Date).getTime() - (runs[i - 1] as Date).getTime()) / 1000);
  if (shortest < minSeconds) return { ok: false, message: `runs more often than every ${minSeconds} seconds` };
  return { ok: true, shortestGapSeconds: Number.isFinite(shortest) ? Math.round(shortest) : MONITOR_MAX_INTERVAL_SECONDS };
}

/** Checks a cron expression (readCronSchedule): the problem, or null. */
export function cronProblem(expression: string, minSeconds: number): string | null {
  const r = readCronSchedule(expression, minSeconds);
  return r.ok ? null : r.message;
}

/** Cron's two forms: minute hour day-of-month month day-of-week, or with seconds first. */
const CRON_FIELD_COUNTS = [5, 6];

/** The monitor's own fields of POST /monitor/create and /monitor/update; every other field is a screenshot option. */
export const MONITOR_OWN_PARAMS = {
  url: custom(z.string().min(1).max(MAX_URL_LENGTH).describe('the page to watch (http or https)'), false, (raw) => {
    const s = oneString(raw);
    if (s === null) return { ok: false, messages: ['must be one URL'] };
    const r = normaliseTargetUrl(s);
    return r.ok ? { ok: true, value: r.url } : { ok: false, messages: [r.message] };
  }),
  name: text(200, 'monitor name'),
  interval: int(1, MONITOR_MAX_INTERVAL_SECONDS, `seconds between runs, at least ${MONITOR_MIN_INTERVAL_SECONDS} (required unless cron is given)`),
  cron: custom(z.string().min(1).max(200).describe('cron expression in UTC (5 or 6 fields), instead of interval; at least 5 minutes between runs'), false, (raw) => {
    const s = oneString(raw);
    if (s === null || s.trim() === '') return { ok: false, messages: ['must be one cron expression'] };
    // croner also takes 7 fields (years) and nicknames (@daily): neither is what the documentation promises.
    if (!CRON_FIELD_COUNTS.includes(s.trim().split(/\s+/).length)) return { ok: false, messages: ['must have 5 fields (minute hour day-of-month month day-of-week) or 6 (seconds first)'] };
    return { ok: true, value: s.trim() };
  }),
  threshold: num(0, 100, `percent of changed pixels above which a run is a change (default ${DEFAULT_THRESHOLD_PERCENT})`),
  ignore: custom(
    z
      .array(regionSchema)
      .max(MAX_IGNORE_REGIONS)
      .describe("regions left out of the comparison: CSS selectors (hidden in every run's capture) and boxes {x, y, width, height} in CSS pixels") as unknown as z.ZodType<IgnoreRegion[]>,
    true,
    readIgnore,
  ),
};

export const MONITOR_ID_PARAMS = { id: idParam };

export const MONITOR_LIST_PARAMS = {
  limit: int(1, MAX_PAGE_SIZE, `page size (default ${DEFAULT_PAGE_SIZE})`),
  offset: int(0, 1_000_000_000, 'records to skip'),
};

export const MONITOR_RUNS_PARAMS = { id: idParam, ...MONITOR_LIST_PARAMS };
