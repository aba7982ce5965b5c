import { z } from 'zod';
import { dateTime } from '../http/common-shapes.js';

/**
 * The shapes of the `data` the app operations answer, as the spec's "Resources and their fields" states them
 * (and operations-not-shown.md for what the spec leaves out). The route descriptors name them as their
 * response; openapi.json lists each under components/schemas by the name api/route-table.ts gives it in SHAPES.
 * Objects are open (`looseObject`): a field added beyond the spec does not make the document a lie.
 */

export const AppType = z.looseObject({
  type: z.string(),
  name: z.string(),
  description: z.string(),
  uploads: z.boolean(),
  settings_schema: z.record(z.string(), z.unknown()).describe('JSON Schema of the settings'),
});
export const AppConfig = z.looseObject({
  id: z.number().int(),
  app_id: z.string(),
  type: z.string(),
  name: z.string(),
  settings: z.record(z.string(), z.unknown()).describe('secrets masked'),
  created_at: dateTime,
  updated_at: dateTime,
});
