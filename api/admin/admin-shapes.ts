import { z } from 'zod';
import { UserSession } from '../auth/auth-shapes.js';
import { dateTime } from '../http/common-shapes.js';

/**
 * The shapes of the `data` the admin operations answer, as the spec's "Resources and their fields" states them
 * (and operations-not-shown.md for what the spec leaves out). The route descriptors name them as their
 * response; openapi.json lists each under components/schemas by the name api/route-table.ts gives it in SHAPES.
 * Objects are open (`looseObject`): a field added beyond the spec does not make the document a lie.
 */

export const AdminOverview = z.looseObject({
  totals: z.looseObject({ users: z.number().int(), companies: z.number().int(), screenshots: z.number().int(), batches: z.number().int(), active_clients: z.number().int() }),
  screenshots: z.looseObject({ last_24h: z.number().int(), failed_24h: z.number().int() }),
  top_users: z.array(z.looseObject({ user_id: z.number().int(), email: z.string(), company_name: z.string(), screenshots: z.number().int() })),
});
export const AdminUser = UserSession.extend({ created_at: dateTime });
export const CreditChange = z.looseObject({ company_id: z.number().int(), delta: z.number().int(), balance: z.number().int(), reason: z.string() });
export const OutboxMessage = z.looseObject({
  id: z.number().int(),
  user_id: z.number().int().nullable(),
  to: z.string(),
  subject: z.string(),
  text: z.string(),
  purpose: z.string(),
  status: z.enum(['logged', 'pending', 'sent', 'failed']),
  error: z.string().nullable(),
  created_at: dateTime,
  sent_at: dateTime.nullable(),
});
