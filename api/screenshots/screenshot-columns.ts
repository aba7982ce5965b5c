import type { CaptureSpec } from '../../core/capture-spec.js';
import { CAPTURE_OPTIONS } from '../options/create-params.js';
import { optionColumns, optionsWithoutColumn, requestOptionsOf, storedOptionValues, type OptionTable } from '../options/option-table.js';
import type { ScreenshotRow } from './screenshot-record.js';

/** jsonb columns: passed as JSON text, because node-postgres would send a JS array as a Postgres array. */
const JSON_COLUMNS = ['final_urls', 'tag', 'steps', 'trackers', 'links', 'warnings', 'timings', 'capture_spec', 'request_options', 'page_metadata'] as const;

/** The record's own columns (not options) that an answer needs, around the options'. */
const OWN_COLUMNS = ['id', 'company_id', 'batch_id', 'crawl_id', 'status', 'error', 'error_cause', 'final_url', 'final_urls', 'response_code', 'cost', 'region'];
const RESULT_COLUMNS = [
  'blank',
  'page_metadata',
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

/**
 * How a record's values are stored in the screenshots table and read back, for an option table (the
 * service's is CAPTURE_OPTIONS; a test passes a copy with a throwaway option). The options' values are
 * stored once: the few with a column there, the rest read back from the stored CaptureSpec, and what the
 * spec cannot say in `request_options`.
 */
export function recordStorage(table: OptionTable) {
  const withoutColumn = optionsWithoutColumn(table);
  return {
    /** A record's values as the table stores them; with its CaptureSpec, the option values are split as above. */
    toDbValues(values: Record<string, unknown>): Record<string, unknown> {
      const out = { ...values };
      if (out.capture_spec !== undefined) {
        out.request_options = requestOptionsOf(table, values, values.capture_spec as CaptureSpec);
        for (const name of withoutColumn) delete out[name];
      }
      for (const c of JSON_COLUMNS) if (c in out) out[c] = JSON.stringify(out[c]);
      return out;
    },
    /** Columns a record answer needs: its own, the options' columns, and the spec and request_options that hold the other options. */
    columns: [...OWN_COLUMNS, ...optionColumns(table), 'capture_spec', 'request_options', ...RESULT_COLUMNS],
    /** A row as the driver returns it, with its option values read back, numeric ids and no app runs yet (ScreenshotStore.withApps fills them). */
    normaliseRow: (row: Record<string, unknown>): ScreenshotRow => {
      const values: Record<string, unknown> = { ...row, ...storedOptionValues(table, row), id: Number(row.id), company_id: Number(row.company_id), apps: [] };
      return values as ScreenshotRow;
    },
  };
}

const storage = recordStorage(CAPTURE_OPTIONS);
export const toDbValues = storage.toDbValues;
export const RECORD_COLUMNS = storage.columns;
export const normaliseRow = storage.normaliseRow;
