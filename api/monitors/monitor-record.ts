import type { IgnoreRegion } from './monitor-params.js';
import type { QueryTree } from '../options/query-input.js';

/** A monitor row as stored. */
export interface MonitorRow {
  id: number;
  company_id: number;
  api_key_id: number | null;
  name: string | null;
  url: string;
  interval_seconds: number;
  cron: string | null;
  threshold: number;
  ignore: IgnoreRegion[];
  options: QueryTree;
  app_config_ids: number[];
  status: 'active' | 'paused';
  next_run_at: Date | string;
  last_run_at: Date | string | null;
  created_at: Date | string;
  updated_at: Date | string;
}

/** A run as GET /monitor/runs lists it: the run row with its screenshot's status and comparison. */
export interface MonitorRunRow {
  id: number;
  monitor_id: number;
  trigger: 'schedule' | 'manual';
  scheduled_for: Date | string;
  screenshot_id: number | null;
  previous_screenshot_id: number | null;
  error: string;
  compared: boolean;
  compared_at: Date | string | null;
  changed: boolean;
  created_at: Date | string;
  screenshot_status: string | null;
  /** the screenshot's own error sentence (a capture blocked, a page unreachable) */
  screenshot_error: string | null;
  change_ratio: number | null;
  text_changes: TextChanges | null;
  has_diff: boolean;
}

/** Lines of visible text a run's HTML gained and lost against the previous run's (html=true only). */
export interface TextChanges {
  added: string[];
  removed: string[];
  added_count: number;
  removed_count: number;
}

const iso = (d: Date | string | null): string => (d === null ? '' : new Date(d).toISOString());

/** A Monitor as the API answers it. */
export function toMonitorRecord(row: MonitorRow): Record<string, unknown> {
  return {
    id: Number(row.id),
    name: row.name ?? '',
    url: row.url,
    status: row.status,
    interval: Number(row.interval_seconds),
    cron: row.cron ?? '',
    threshold: Number(row.threshold),
    ignore: row.ignore.map((r) => ('selector' in r ? r.selector : r.box)),
    options: row.options,
    apps: row.app_config_ids.map(Number),
    next_run_at: row.status === 'active' ? iso(row.next_run_at) : '',
    last_run_at: iso(row.last_run_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
  };
}

/** A run: its screenshot, the comparison with the previous finished shot, and the diff image's link. */
export function toMonitorRunRecord(row: MonitorRunRow, links: { diffUrl(screenshotId: number): string; imageUrl(screenshotId: number): string }): Record<string, unknown> {
  const shot = row.screenshot_id === null ? null : Number(row.screenshot_id);
  const status = row.error ? 'error' : row.screenshot_status === 'processing' || shot === null ? 'processing' : row.compared_at !== null ? row.screenshot_status : 'comparing';
  return {
    id: Number(row.id),
    monitor_id: Number(row.monitor_id),
    trigger: row.trigger,
    scheduled_for: iso(row.scheduled_for),
    created_at: iso(row.created_at),
    status,
    // The run's own reason (it could not start, the comparison failed), else its capture's.
    error: row.error || (row.screenshot_status === 'error' ? (row.screenshot_error ?? '') : ''),
    screenshot_id: shot,
    previous_screenshot_id: row.previous_screenshot_id === null ? null : Number(row.previous_screenshot_id),
    change_ratio: row.change_ratio === null ? null : Number(row.change_ratio),
    changed: row.changed,
    image_url: shot !== null && row.screenshot_status === 'finished' ? links.imageUrl(shot) : '',
    diff_url: shot !== null && row.has_diff ? links.diffUrl(shot) : '',
    text_changes: row.text_changes,
  };
}
