import { z } from 'zod';
import { Plan } from '../billing/billing-shapes.js';
import { dateTime } from '../http/common-shapes.js';

/**
 * The shapes of the `data` the account and API key operations answer, as the spec's "Resources and their fields" states them
 * (and operations-not-shown.md for what the spec leaves out). The route descriptors name them as their
 * response; openapi.json lists each under components/schemas by the name api/route-table.ts gives it in SHAPES.
 * Objects are open (`looseObject`): a field added beyond the spec does not make the document a lie.
 */

export const AccountInfo = z.looseObject({
  balance: z.number().int(),
  company_id: z.number().int(),
  company_name: z.string(),
  plan: z.string().nullable().describe("the live plan's id, or null"),
  plan_details: Plan.nullable(),
  usage: z.looseObject({ total_screenshots: z.number().int(), screenshots_this_month: z.number().int(), processing: z.number().int() }),
});

export const ApiKey = z.looseObject({
  id: z.number().int(),
  name: z.string().nullable(),
  prefix: z.string(),
  user_id: z.number().int().nullable(),
  created_at: dateTime,
  last_used_at: dateTime.nullable(),
  current: z.boolean().describe('the key this request used'),
  access: z.string().describe("the key's public id, named by its signed render links"),
  signing_secret_set: z.boolean().describe('whether the key has a signing secret (keys made before signed links, or by signup, get one with POST /key/rotate-signing-secret)'),
});
export const NewApiKey = ApiKey.extend({
  key: z.string().describe('the secret: shown in this answer only'),
  signing_secret: z.string().describe('the HMAC key of signed render links: shown in this answer only'),
});
export const RotatedSigningSecret = z.looseObject({
  id: z.number().int(),
  access: z.string(),
  signing_secret: z.string().describe('the new secret: shown in this answer only'),
  previous_secret_valid_until: dateTime.nullable().describe('until when the previous secret still signs (null: the key had none)'),
});
export const SignedRenderLink = z.looseObject({
  url: z.string().describe('the signed GET /screenshot/render link'),
  access: z.string(),
  expires: z.number().int().nullable(),
});

const counts = { processing: z.number().int(), finished: z.number().int(), error: z.number().int() };
export const DashboardOverview = z.looseObject({
  account: z.looseObject({ company_id: z.number().int(), company_name: z.string(), balance: z.number().int() }),
  billing: z.looseObject({ plan: Plan, usage: z.looseObject({ screenshots_this_month: z.number().int(), monthly_limit: z.number().int(), remaining: z.number().int() }) }).nullable(),
  usage: z.looseObject({ total_screenshots: z.number().int(), screenshots_this_month: z.number().int(), ...counts }),
  batches: z.looseObject({ total: z.number().int(), ...counts }),
  recent_screenshots: z.array(z.looseObject({ id: z.number().int(), url: z.string(), status: z.string(), cost: z.number().int(), error: z.string(), created_at: z.string(), finished_at: z.string() })),
});
