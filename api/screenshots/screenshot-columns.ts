import { CAPTURE_OPTIONS } from '../../core/request/create-params.js';
import { optionColumns, recordReadsSpec } from '../../core/request/option-table.js';
import type { ScreenshotRow } from '../../core/screenshot-record.js';

/** jsonb columns: passed as JSON text, because node-postgres would send a JS array as a Postgres array. */
const JSON_COLUMNS = ['final_urls', 'tag', 'steps', 'trackers', 'links', 'warnings', 'timings', 'capture_spec'] as const;

export const toDbValues = (values: Record<string, unknown>): Record<string, unknown> => {
  const out = { ...values };
  for (const c of JSON_COLUMNS) if (c in out) out[c] = JSON.stringify(out[c]);
  return out;
};

/**
 * Columns a record answer needs: its own, and the options' (the option table's); the stored CaptureSpec
 * only when an option is kept there alone.
 */
export const RECORD_COLUMNS = [
  'id',
  'company_id',
  'batch_id',
  'crawl_id',
  'status',
  'error',
  'error_cause',
  'final_url',
  'final_urls',
  'response_code',
  'cost',
  'region',
  ...optionColumns(CAPTURE_OPTIONS),
  ...(recordReadsSpec(CAPTURE_OPTIONS) ? ['capture_spec'] : []),
  'steps',
  'trackers',
  'links',
  'warnings',
  'timings',
  'browser_info',
  'routing',
  'node_id',
  'request_id',
  'spec_hash',
  'created_at',
  'finished_at',
  'monitor_id',
  'change_ratio',
  'text_changes',
  'attempt',
  'retry_of',
];

/** A row as the driver returns it, with numeric ids and no app runs yet (ScreenshotStore.withApps fills them). */
export const normaliseRow = (row: Record<string, unknown>): ScreenshotRow => ({ ...row, id: Number(row.id), company_id: Number(row.company_id), apps: [] }) as unknown as ScreenshotRow;
