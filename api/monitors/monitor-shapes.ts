import { z } from 'zod';
import { dateTime, dateTimeOrEmpty } from '../http/common-shapes.js';

/**
 * The shapes of the `data` the page monitor operations answer, as the spec's "Resources and their fields" states them
 * (and operations-not-shown.md for what the spec leaves out). The route descriptors name them as their
 * response; openapi.json lists each under components/schemas by the name api/route-table.ts gives it in SHAPES.
 * Objects are open (`looseObject`): a field added beyond the spec does not make the document a lie.
 */

/** A page monitor (issue 20, beyond the spec): api/monitors/monitor-record.ts. */
export const Monitor = z.looseObject({
  id: z.number().int(),
  name: z.string(),
  url: z.string(),
  status: z.enum(['active', 'paused']),
  interval: z.number().int().describe('seconds between runs (when cron is empty)'),
  cron: z.string().describe('cron expression in UTC, or empty'),
  threshold: z.number().describe('percent of changed pixels above which a run is a change'),
  ignore: z
    .array(z.union([z.string(), z.looseObject({ x: z.number().int(), y: z.number().int(), width: z.number().int(), height: z.number().int() })]))
    .describe('CSS selectors and boxes left out of the comparison'),
  options: z.record(z.string(), z.unknown()).describe('the screenshot options of every run'),
  apps: z.array(z.number().int()).describe('app configurations run on a change'),
  next_run_at: dateTimeOrEmpty,
  last_run_at: dateTimeOrEmpty,
  created_at: dateTime,
  updated_at: dateTime,
});
export const MonitorRun = z.looseObject({
  id: z.number().int(),
  monitor_id: z.number().int(),
  trigger: z.enum(['schedule', 'manual']),
  scheduled_for: dateTime,
  created_at: dateTime,
  status: z.enum(['processing', 'comparing', 'finished', 'error']),
  error: z.string(),
  screenshot_id: z.number().int().nullable(),
  previous_screenshot_id: z.number().int().nullable().describe('the shot it was compared with; null for the first'),
  change_ratio: z.number().nullable().describe('changed pixels / compared pixels, 0 to 1; null until compared'),
  changed: z.boolean().describe('change_ratio above the threshold'),
  image_url: z.string().describe("signed link to the run's image, or empty"),
  diff_url: z.string().describe('signed link to the diff image, or empty'),
  text_changes: z
    .looseObject({ added: z.array(z.string()), removed: z.array(z.string()), added_count: z.number().int(), removed_count: z.number().int() })
    .nullable()
    .describe('html=true only'),
});
