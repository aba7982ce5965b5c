import { z } from 'zod';
import { BROWSERS } from '../../core/capture-spec.js';

/**
 * The shapes of the `data` the farm's admin operations (nodes, browsers) answer, as the spec's "Resources and their fields" states them
 * (and operations-not-shown.md for what the spec leaves out). The route descriptors name them as their
 * response; openapi.json lists each under components/schemas by the name api/route-table.ts gives it in SHAPES.
 * Objects are open (`looseObject`): a field added beyond the spec does not make the document a lie.
 */

export const Node = z.looseObject({
  id: z.string(),
  host: z.string(),
  browsers: z.array(z.looseObject({ name: z.enum(BROWSERS), version: z.string(), driver: z.enum(['playwright', 'selenium']) })),
  countries: z.array(z.string()).describe('countries the node egresses from; empty: any'),
  slots: z.number().int(),
  inFlight: z.number().int(),
  jobsDone: z.number().int(),
  failures: z.number().int(),
  startedAt: z.string(),
  draining: z.boolean(),
  rssBytes: z.number().int().nullable().optional().describe("resident memory of the node's process tree (agent and browsers), bytes; null where unreadable"),
});

/** GET /admin/browsers (api/farm/browser-activity.ts): per browser, the queue and the recent captures. */
export const BrowserActivity = z.looseObject({
  window_minutes: z.number().int().describe('the window captures, per_minute and error_rate are measured over'),
  browsers: z.array(
    z.looseObject({
      browser: z.enum(BROWSERS),
      queued: z.number().int(),
      oldest_wait_seconds: z.number(),
      captures: z.number().int(),
      errors: z.number().int(),
      per_minute: z.number(),
      error_rate: z.number(),
    }),
  ),
});
