import type { BrowserName, Step, TrackerResult, TrackerSpec } from './capture-spec.js';
import type { ErrorCause } from './error-cause.js';

/** The spec's AppStatus: the latest state of one app run for a screenshot. */
export interface AppStatus {
  id: number;
  app_id: string;
  type: string;
  name: string;
  status: 'pending' | 'queued' | 'processing' | 'finished' | 'error';
  filename: string;
  error: string;
  output_url: string;
  output_data: Record<string, unknown> | null;
  updated_at: string;
}

/**
 * The columns of a screenshot record that a create call decides (everything but id, status, result
 * fields and timestamps). Names are the spec's field names, so the record is the row.
 */
export interface ScreenshotFields {
  url: string;
  cost: number;
  country: string;
  region: string;
  language: string;
  timezone: string;
  geo_enable: boolean;
  geo_latitude: number;
  geo_longitude: number;
  size: 'screen' | 'page';
  cache: number;
  delay: number;
  screen_width: number;
  screen_height: number;
  max_height: number;
  priority: number;
  referer: string;
  post_data: string;
  cookie: string;
  /** script URLs, one per line */
  script: string;
  script_inline: string;
  /** `Name: value` lines */
  header: string;
  user_agent: string;
  html: boolean;
  pdf: boolean;
  video: boolean;
  pdf_background: boolean;
  pdf_one_page: boolean;
  pdf_landscape: boolean;
  pdf_format: string;
  pdf_margin: string;
  pdf_margin_top: string;
  pdf_margin_bottom: string;
  pdf_margin_left: string;
  pdf_margin_right: string;
  video_format: string;
  video_quality: number;
  video_speed: number;
  video_duration: number;
  video_fps: number;
  video_colors: number;
  video_scale: number;
  max_wait: number;
  hide_popups: boolean;
  hide_ads: boolean;
  dark: boolean;
  strict_ssl: boolean;
  shots: number;
  shot_interval: number;
  target: string;
  device_name: string;
  device_scale: number;
  device_mobile: boolean;
  device_touch: boolean;
  device_landscape: boolean;
  browser: BrowserName;
  tag: string[];
  steps: Step[];
  trackers: TrackerSpec[] | TrackerResult[];
  /** what the request asked that was not done (an unknown parameter, a skipped step); the capture adds its own */
  warnings: string[];
}

/** A stored screenshot row as the database returns it. */
export interface ScreenshotRow extends ScreenshotFields {
  id: number;
  company_id: number;
  batch_id: number | null;
  crawl_id: number | null;
  status: 'processing' | 'finished' | 'error';
  error: string;
  /** why it ended as `error` (core/error-cause.ts); null otherwise, and on records older than the field */
  error_cause: ErrorCause | null;
  final_url: string;
  final_urls: string[];
  response_code: number | null;
  links: string[];
  /** the AppStatus entries of the apps this record runs, from app_runs */
  apps: AppStatus[];
  timings: Record<string, number>;
  browser_info: string;
  routing: string;
  node_id: string;
  /** the X-Request-Id of the HTTP request that created the record ('' when none did) */
  request_id: string;
  spec_hash: string;
  created_at: Date | string;
  finished_at: Date | string | null;
  /** the monitor whose run took it, and that run's comparison with the previous shot (null before it is done) */
  monitor_id?: number | null;
  change_ratio?: number | null;
  text_changes?: Record<string, unknown> | null;
  /** 1, or the attempt of a batch retry that captured it again in place of `retry_of` */
  attempt?: number;
  retry_of?: number | null;
}

const PX_PER_UNIT: Record<string, number> = { px: 1, in: 96, cm: 96 / 2.54, mm: 96 / 25.4 };

/** `10mm` → 38: CSS pixels at 96 per inch, the unit the create response states margins in. */
export function cssLengthToPixels(length: string): number {
  const m = /^(\d+(?:\.\d+)?)(px|mm|cm|in)$/.exec(length);
  if (!m) return 0;
  return Math.round(Number(m[1]) * (PX_PER_UNIT[m[2] as string] ?? 1));
}

const iso = (d: Date | string | null): string => (d === null ? '' : new Date(d).toISOString());

/**
 * The Screenshot record of the spec. `create` answers margins as numbers (pixels), as the spec's create
 * response does; every other answer gives them as CSS length strings.
 */
export function toScreenshotRecord(row: ScreenshotRow, mode: 'create' | 'record' = 'record'): Record<string, unknown> {
  const margin = (v: string): string | number => (mode === 'create' ? cssLengthToPixels(v) : v);
  const record: Record<string, unknown> = {
    id: Number(row.id),
    status: row.status,
    // Beyond the spec, like `error` only on an error: its stable code (docs/api-clients.md lists them).
    ...(row.status === 'error' ? { error: row.error, error_cause: row.error_cause } : {}),
    url: row.url,
    final_url: row.final_url,
    final_urls: row.final_urls,
    response_code: row.response_code,
    apps: row.apps,
    cost: row.cost,
    country: row.country,
    region: row.region,
    language: row.language,
    timezone: row.timezone,
    geo_enable: row.geo_enable,
    geo_latitude: row.geo_latitude,
    geo_longitude: row.geo_longitude,
    size: row.size,
    cache: row.cache,
    delay: row.delay,
    screen_width: row.screen_width,
    screen_height: row.screen_height,
    max_height: row.max_height,
    priority: row.priority,
    referer: row.referer,
    post_data: row.post_data,
    cookie: row.cookie,
    script: row.script,
    header: row.header,
    user_agent: row.user_agent,
    html: row.html,
    pdf: row.pdf,
    video: row.video,
    pdf_background: row.pdf_background,
    pdf_one_page: row.pdf_one_page,
    pdf_landscape: row.pdf_landscape,
    pdf_format: row.pdf_format,
    pdf_margin: margin(row.pdf_margin),
    pdf_margin_top: margin(row.pdf_margin_top),
    pdf_margin_bottom: margin(row.pdf_margin_bottom),
    pdf_margin_left: margin(row.pdf_margin_left),
    pdf_margin_right: margin(row.pdf_margin_right),
    video_format: row.video_format,
    video_quality: row.video_quality,
    video_speed: row.video_speed,
    video_duration: row.video_duration,
    video_fps: row.video_fps,
    video_colors: row.video_colors,
    video_scale: row.video_scale,
    max_wait: row.max_wait,
    hide_popups: row.hide_popups,
    hide_ads: row.hide_ads,
    dark: row.dark,
    strict_ssl: row.strict_ssl,
    shots: row.shots,
    shot_interval: row.shot_interval,
    target: row.target,
    device_name: row.device_name,
    device_scale: row.device_scale,
    device_mobile: row.device_mobile,
    device_touch: row.device_touch,
    device_landscape: row.device_landscape,
    browser: row.browser,
    created_at: iso(row.created_at),
    finished_at: iso(row.finished_at),
    tag: row.tag,
    ...(row.steps.length > 0 ? { steps: row.steps } : {}),
    trackers: row.trackers,
    links: row.links,
    // Beyond the spec: what the capture could not honour, what ran, and where the time went.
    warnings: row.warnings,
    browser_info: row.browser_info,
    routing: row.routing,
    node_id: row.node_id,
    request_id: row.request_id,
    timings: row.timings,
    // A monitor run's screenshot says so, with its comparison; a batch retry's, which record it stands in for.
    ...(row.monitor_id != null ? { monitor_id: Number(row.monitor_id), change_ratio: row.change_ratio ?? null, text_changes: row.text_changes ?? null } : {}),
    ...(row.retry_of != null ? { attempt: Number(row.attempt), retry_of: Number(row.retry_of) } : {}),
  };
  return record;
}
