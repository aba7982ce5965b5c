import type { ScreenshotRow } from '../../core/screenshot-record.js';

/** jsonb columns: passed as JSON text, because node-postgres would send a JS array as a Postgres array. */
const JSON_COLUMNS = ['final_urls', 'tag', 'steps', 'trackers', 'links', 'warnings', 'timings', 'capture_spec'] as const;

export const toDbValues = (values: Record<string, unknown>): Record<string, unknown> => {
  const out = { ...values };
  for (const c of JSON_COLUMNS) if (c in out) out[c] = JSON.stringify(out[c]);
  return out;
};

/** Columns a record answer needs (everything but the stored CaptureSpec). */
export const RECORD_COLUMNS = [
  'id', 'company_id', 'batch_id', 'crawl_id', 'status', 'error', 'error_cause', 'url', 'final_url', 'final_urls', 'response_code', 'cost',
  'country', 'region', 'language', 'timezone', 'geo_enable', 'geo_latitude', 'geo_longitude', 'size', 'cache', 'delay',
  'screen_width', 'screen_height', 'max_height', 'priority', 'referer', 'post_data', 'cookie', 'script', 'script_inline', 'header',
  'user_agent', 'html', 'pdf', 'video', 'pdf_background', 'pdf_one_page', 'pdf_landscape', 'pdf_format', 'pdf_margin',
  'pdf_margin_top', 'pdf_margin_bottom', 'pdf_margin_left', 'pdf_margin_right', 'video_format', 'video_quality', 'video_speed',
  'video_duration', 'video_fps', 'video_colors', 'video_scale', 'max_wait', 'hide_popups', 'hide_ads', 'dark', 'strict_ssl',
  'shots', 'shot_interval', 'target', 'device_name', 'device_scale', 'device_mobile', 'device_touch', 'device_landscape',
  'browser', 'tag', 'steps', 'trackers', 'links', 'warnings', 'timings', 'browser_info', 'routing', 'node_id', 'request_id', 'spec_hash', 'created_at', 'finished_at',
  'monitor_id', 'change_ratio', 'text_changes', 'attempt', 'retry_of',
];

/** A row as the driver returns it, with numeric ids and no app runs yet (ScreenshotStore.withApps fills them). */
export const normaliseRow = (row: Record<string, unknown>): ScreenshotRow => ({ ...row, id: Number(row.id), company_id: Number(row.company_id), apps: [] }) as unknown as ScreenshotRow;
