import type { CaptureSpec } from '../../core/capture-spec.js';
import type { Pricing } from '../../core/pricing.js';
import { CAPTURE_OPTIONS } from '../options/create-params.js';
import { optionsCost, storedOptionValues } from '../options/option-table.js';
import type { ScreenshotDraft } from '../options/create-request.js';
import type { ScreenshotFields } from './screenshot-record.js';

/**
 * Columns of a stored record that are not what its create request decided: who owns it, how it ended,
 * and bookkeeping. Every other column, with the option values read back from the spec and request_options,
 * is a ScreenshotFields field (the record is the request's fields).
 */
const NOT_REQUEST_FIELDS = new Set([
  'id',
  'company_id',
  'api_key_id',
  'batch_id',
  'crawl_id',
  'monitor_id',
  'status',
  'error',
  'final_url',
  'final_urls',
  'response_code',
  'links',
  'timings',
  'browser_info',
  'routing',
  'node_id',
  'spec_hash',
  'capture_spec',
  'request_options',
  'created_at',
  'finished_at',
  'change_ratio',
  'text_changes',
  'attempt',
  'retry_of',
  'apps',
]);

/**
 * The draft a stored record was created from, to capture the same thing again (a batch retry): its
 * request fields, its stored CaptureSpec and cache key. What the capture wrote over the request's values
 * goes back to the request's: the trackers to their definitions (the spec's), the warnings to none (the
 * new capture adds its own), the User-Agent to the one asked for, and the cost (an error's is 0) to
 * today's price of the same options.
 */
export function draftOfRecord(row: Record<string, unknown>, pricing: Pricing): ScreenshotDraft {
  const spec = row.capture_spec as CaptureSpec;
  const fields = { ...Object.fromEntries(Object.entries(row).filter(([k]) => !NOT_REQUEST_FIELDS.has(k))), ...storedOptionValues(CAPTURE_OPTIONS, row) } as ScreenshotFields;
  const cost = optionsCost(CAPTURE_OPTIONS, pricing, fields);
  return {
    fields: { ...fields, cost, trackers: spec.trackers, warnings: [], user_agent: spec.userAgent ?? '' },
    spec,
    specHash: String(row.spec_hash),
  };
}
