import { z } from 'zod';
import { CAPTURE_OPTIONS } from '../options/create-params.js';
import { optionRecordShape } from '../options/option-table.js';
import { dateTime, dateTimeOrEmpty, recordStatus } from '../http/common-shapes.js';

/**
 * The shapes of the `data` the screenshot operations answer, as the spec's "Resources and their fields" states them
 * (and operations-not-shown.md for what the spec leaves out). The route descriptors name them as their
 * response; openapi.json lists each under components/schemas by the name api/route-table.ts gives it in SHAPES.
 * Objects are open (`looseObject`): a field added beyond the spec does not make the document a lie.
 */

export const AppStatus = z.looseObject({
  id: z.number().int(),
  app_id: z.string(),
  type: z.string(),
  name: z.string(),
  status: z.enum(['pending', 'queued', 'processing', 'finished', 'error']),
  filename: z.string(),
  error: z.string(),
  output_url: z.string(),
  output_data: z.record(z.string(), z.unknown()).nullable(),
  updated_at: dateTime,
});

export const Tracker = z.looseObject({
  id: z.string(),
  name: z.string(),
  value: z.unknown(),
  input: z.string(),
  selector: z.string(),
  name_type: z.string(),
  value_type: z.string(),
  return: z.array(z.looseObject({ found: z.number().int(), shot: z.number().int(), value: z.string().optional(), name: z.string() })).optional(),
});

/** The record's `metadata` (metadata=1): what the page says about itself (core/capture-spec.ts, PageMetadata). */
export const PageMetadata = z.looseObject({
  title: z.string().nullable(),
  description: z.string().nullable(),
  lang: z.string().nullable(),
  canonical: z.string().nullable().describe('absolute URL'),
  open_graph: z.record(z.string(), z.string()).describe('og:* properties without the prefix'),
  twitter: z.record(z.string(), z.string()).describe('twitter:* names without the prefix'),
  icons: z.array(z.looseObject({ url: z.string(), sizes: z.string().nullable(), type: z.string().nullable() })),
  theme_color: z.string().nullable(),
  fonts: z.array(z.string()).describe('font families that render text on the page'),
  colors: z.array(z.string()).describe('up to five dominant colours of the image, #rrggbb, most frequent first'),
  word_count: z.number().int(),
  content_type: z.string().nullable(),
});

export const Screenshot = z.looseObject({
  id: z.number().int(),
  status: recordStatus,
  error: z.string().optional().describe('only when status is error'),
  final_url: z.string(),
  final_urls: z.array(z.string()).optional(),
  response_code: z.number().int().nullable().optional(),
  apps: z.array(AppStatus).optional(),
  cost: z.number().int(),
  region: z.string(),
  // The capture options as the record shows them (api/options/create-params.ts, CAPTURE_OPTIONS).
  ...optionRecordShape(CAPTURE_OPTIONS),
  created_at: dateTime,
  finished_at: dateTimeOrEmpty,
  steps: z.array(z.record(z.string(), z.unknown())).optional().describe('omitted when empty'),
  trackers: z.array(Tracker).optional(),
  links: z.array(z.string()).optional(),
  warnings: z.array(z.string()).optional().describe('beyond the spec: what the capture could not honour'),
  blank: z.boolean().optional().describe('beyond the spec: the capture looks blank (one colour, or nothing visible on the page: no text, no image, no painted element)'),
  metadata: PageMetadata.nullable().optional().describe('beyond the spec: with metadata=1, what the page says about itself; null otherwise'),
});

export const ScreenshotInfo = Screenshot.extend({
  has_html: z.boolean(),
  has_markdown: z.boolean().describe('beyond the spec: GET /screenshot/markdown has it'),
  has_pdf: z.boolean(),
  has_video: z.boolean(),
});

export const Device = z.looseObject({
  device_name: z.string(),
  name: z.string(),
  user_agent: z.string(),
  screen_width: z.number().int(),
  screen_height: z.number().int(),
  device_scale: z.number(),
  device_mobile: z.boolean(),
  device_touch: z.boolean(),
  device_landscape: z.boolean(),
});
