import type { PageMetadata } from '../../core/capture-spec.js';
import type { ErrorCause } from '../../core/error-cause.js';
import { CAPTURE_OPTIONS } from '../options/create-params.js';
import type { ScreenshotFields } from '../options/create-request.js';
import { optionRecordFields, type OptionTable } from '../options/option-table.js';

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

export type { ScreenshotFields };

/** A stored screenshot row as the database returns it. */
export type ScreenshotRow = ScreenshotFields & {
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
  /** the capture looked blank (drivers/shared/blank-check.ts); false while processing */
  blank: boolean;
  /** metadata=1: what the page says about itself (core/capture-spec.ts PageMetadata), the record's `metadata`; null otherwise */
  page_metadata?: PageMetadata | null;
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
};

export { cssLengthToPixels } from '../options/create-params.js';

const iso = (d: Date | string | null): string => (d === null ? '' : new Date(d).toISOString());

/**
 * The Screenshot record of the spec. `create` answers margins as numbers (pixels), as the spec's create
 * response does; every other answer gives them as CSS length strings (the option table says so).
 */
export function toScreenshotRecord(row: ScreenshotRow, mode: 'create' | 'record' = 'record', table: OptionTable = CAPTURE_OPTIONS): Record<string, unknown> {
  const record: Record<string, unknown> = {
    id: Number(row.id),
    status: row.status,
    // Beyond the spec, like `error` only on an error: its stable code (docs/api-clients.md lists them).
    ...(row.status === 'error' ? { error: row.error, error_cause: row.error_cause } : {}),
    final_url: row.final_url,
    final_urls: row.final_urls,
    response_code: row.response_code,
    apps: row.apps,
    cost: row.cost,
    region: row.region,
    // The capture options as the record shows them: each entry of the option table says how.
    ...optionRecordFields(table, row, mode),
    created_at: iso(row.created_at),
    finished_at: iso(row.finished_at),
    tag: row.tag,
    ...(row.steps.length > 0 ? { steps: row.steps } : {}),
    trackers: row.trackers,
    links: row.links,
    // Beyond the spec: what the capture could not honour, what ran, and where the time went.
    warnings: row.warnings,
    blank: row.blank === true,
    // metadata=1 (beyond-v1.md part 5): null when not asked or not read yet.
    metadata: row.page_metadata ?? null,
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
