import { z } from 'zod';
import { recordStatus, unixSeconds } from '../http/common-shapes.js';

/**
 * The shapes of the `data` the batch operations answer, as the spec's "Resources and their fields" states them
 * (and operations-not-shown.md for what the spec leaves out). The route descriptors name them as their
 * response; openapi.json lists each under components/schemas by the name api/route-table.ts gives it in SHAPES.
 * Objects are open (`looseObject`): a field added beyond the spec does not make the document a lie.
 */

export const Batch = z.looseObject({
  id: z.number().int(),
  status: recordStatus,
  error: z.string(),
  started: unixSeconds,
  finished: unixSeconds,
  count: z.number().int().min(0),
  processed: z.number().int().min(0),
  failed: z.number().int().min(0),
  zip_url: z.string(),
});
export const BatchCreated = Batch.extend({ name: z.string().nullable(), invalid_lines: z.array(z.unknown()).describe('beyond the spec: the lines of the file that were not used') });
/** Beyond the spec: one attempt of a batch (the first, then one per POST /batch/retry), counted over its own records. */
export const BatchAttempt = z.looseObject({ attempt: z.number().int().min(1), count: z.number().int().min(0), processed: z.number().int().min(0), failed: z.number().int().min(0) });
const attempts = z.array(BatchAttempt).describe("beyond the spec: each attempt's counts, the first and one per retry");
export const BatchInfo = Batch.extend({ name: z.string().nullable(), screenshots: z.array(z.number().int()), attempts });
export const BatchRetried = Batch.extend({ name: z.string().nullable(), attempts });
