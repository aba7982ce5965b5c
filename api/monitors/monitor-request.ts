import { ApiError, validationError, type FieldErrors } from '../../core/errors.js';
import { CREATE_PARAM_NAMES } from '../options/create-params.js';
import { buildCreateRequest, type CreateContext, type ScreenshotDraft } from '../options/create-request.js';
import { isSourceUrl } from '../options/create-targets.js';
import { DEFAULT_THRESHOLD_PERCENT, MONITOR_OWN_PARAMS, readCronSchedule, type IgnoreRegion } from './monitor-params.js';
import type { QueryTree } from '../options/query-input.js';
import { collectParams, paramNames } from '../options/read-params.js';

/**
 * Fields that are not options a run is created with: the monitor's own (under every name), the
 * credential, `apps` (a monitor runs its apps when a change is found, not after every run) and `cache`
 * (every run is a new capture: an answer from the cache would compare a shot with itself).
 */
const NOT_OPTIONS = new Set([...paramNames(MONITOR_OWN_PARAMS), 'key', 'apps', 'cache']);

/** Stands in for a URL that is itself invalid, so that the options are still checked and reported. */
const OPTIONS_PROBE_URL = 'https://example.com/';

export interface MonitorContext extends CreateContext {
  minIntervalSeconds: number;
}

export interface MonitorRequest {
  url: string;
  name: string | null;
  /** seconds between runs; with a cron expression, its shortest gap between two runs (what the runs-per-hour budget counts) */
  intervalSeconds: number;
  cron: string | null;
  threshold: number;
  ignore: IgnoreRegion[];
  /** the screenshot options, as given, every run is created with */
  options: QueryTree;
  /** user-defined app ids run when a change is found */
  apps: string[];
}

/**
 * The ignored elements are hidden as `hide_selector` hides (their boxes stay, blank): a constructed style
 * sheet added before the shot (drivers/page-scripts/adopt-style-sheet.ts), which a Content-Security-Policy
 * that forbids inline styles does not refuse, unlike the <style> element runs used to add. Both shots of a
 * comparison have them blank, wherever the elements are that day; an element inserted later is hidden too.
 */
export function withIgnoredHidden(options: QueryTree, ignore: IgnoreRegion[]): QueryTree {
  const selectors = ignore.flatMap((r) => ('selector' in r ? [r.selector] : []));
  if (selectors.length === 0) return options;
  const own = Array.isArray(options.hide_selector) ? (options.hide_selector as string[]) : typeof options.hide_selector === 'string' ? [options.hide_selector] : [];
  return { ...options, hide_selector: [...own, ...selectors] };
}

/** One run of a monitor: the create rules of GET /screenshot/create applied to its options, with no cache. */
export function buildMonitorRun(monitor: { url: string; options: QueryTree; ignore: IgnoreRegion[] }, ctx: CreateContext): ScreenshotDraft {
  // A monitor of a source renders the source its options hold; its url is the source's record url.
  const query: QueryTree = { ...withIgnoredHidden(monitor.options, monitor.ignore), ...(isSourceUrl(monitor.url) ? {} : { url: [monitor.url] }), cache: ['0'] };
  const request = buildCreateRequest(query, ctx);
  // The monitor request refused several countries; a stored monitor always makes one draft.
  if (request.drafts.length !== 1) throw new Error(`a monitor run gave ${request.drafts.length} drafts`);
  return request.drafts[0] as ScreenshotDraft;
}

/**
 * Validates POST /monitor/create (and /monitor/update, given the stored monitor's fields with the changes
 * on top): the monitor's fields and the screenshot options together, so one 400 names every bad field.
 */
export function buildMonitorRequest(input: QueryTree, ctx: MonitorContext): MonitorRequest {
  const fields: FieldErrors = {};
  const addError = (field: string, message: string): void => void (fields[field] ??= []).push(message);
  const own = collectParams(MONITOR_OWN_PARAMS, input, fields, []);
  // A page (url) or a source (source_html / source_markdown, one of the screenshot options): create's rules say which.
  const hasSource = input.source_html !== undefined || input.source_markdown !== undefined;
  if (own.url === undefined && !hasSource && !fields.url) addError('url', 'is required (or give source_html or source_markdown)');
  if (own.interval === undefined && own.cron === undefined && !fields.interval) addError('interval', `is required (seconds between runs, at least ${ctx.minIntervalSeconds}) unless cron is given`);
  if (own.interval !== undefined && own.interval < ctx.minIntervalSeconds) addError('interval', `must be at least ${ctx.minIntervalSeconds} seconds`);
  // One schedule: before, a cron given with an interval won silently and the interval was shown.
  if (own.interval !== undefined && own.cron !== undefined) addError('cron', 'cannot be given with interval: a monitor runs on one schedule, seconds between runs or a cron expression');
  let cronGapSeconds: number | null = null;
  if (own.cron !== undefined) {
    const cron = readCronSchedule(own.cron, ctx.minIntervalSeconds);
    if (cron.ok) cronGapSeconds = cron.shortestGapSeconds;
    else addError('cron', cron.message);
  }
  const given = Object.entries(input).filter(([name]) => !NOT_OPTIONS.has(name));
  const options: QueryTree = Object.fromEntries(given.filter(([name]) => CREATE_PARAM_NAMES.has(name)));
  let apps: string[] = [];
  let url = own.url;
  try {
    const target: QueryTree = hasSource && own.url === undefined ? {} : { url: [own.url ?? OPTIONS_PROBE_URL] };
    // With the ignored selectors in hide_selector, as every run has them: a run never meets a refusal the create did not.
    const request = buildCreateRequest({ ...withIgnoredHidden(Object.fromEntries(given), own.ignore ?? []), apps: input.apps ?? [], ...target, cache: ['0'] }, ctx);
    if (request.drafts.length !== 1) addError('country', 'a monitor captures from one country');
    apps = request.apps;
    url ??= hasSource ? request.drafts[0]?.spec.url : undefined;
  } catch (err) {
    if (!(err instanceof ApiError) || !err.extra.fields) throw err;
    for (const [field, messages] of Object.entries(err.extra.fields)) for (const m of messages) addError(field, m);
  }
  if (Object.keys(fields).length > 0 || url === undefined) throw validationError(fields);
  return {
    url,
    name: own.name ?? null,
    intervalSeconds: own.interval ?? cronGapSeconds ?? ctx.minIntervalSeconds,
    cron: own.cron ?? null,
    threshold: own.threshold ?? DEFAULT_THRESHOLD_PERCENT,
    ignore: own.ignore ?? [],
    options,
    apps,
  };
}
