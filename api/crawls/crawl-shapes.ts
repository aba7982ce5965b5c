import { z } from 'zod';
import { dateTime, unixSeconds } from '../http/common-shapes.js';
import { Screenshot } from '../screenshots/screenshot-shapes.js';

/**
 * The shapes of the `data` the crawl operations answer, as the spec's "Resources and their fields" states them
 * (and operations-not-shown.md for what the spec leaves out). The route descriptors name them as their
 * response; openapi.json lists each under components/schemas by the name api/route-table.ts gives it in SHAPES.
 * Objects are open (`looseObject`): a field added beyond the spec does not make the document a lie.
 */

export const Crawl = z.looseObject({
  id: z.number().int(),
  status: z.enum(['processing', 'finished', 'cancelled', 'error']),
  error: z.string().optional(),
  domain: z.string(),
  start_url: z.string(),
  max_urls: z.number().int(),
  total_discovered: z.number().int(),
  processed: z.number().int(),
  failed: z.number().int(),
  created_at: dateTime,
  started: unixSeconds,
  finished: unixSeconds,
});
export const CrawlInfo = Crawl.extend({ screenshots: z.array(Screenshot) });
