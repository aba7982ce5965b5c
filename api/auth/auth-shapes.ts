import { z } from 'zod';

/**
 * The shapes of the `data` the sign-up, login and session operations answer, as the spec's "Resources and their fields" states them
 * (and operations-not-shown.md for what the spec leaves out). The route descriptors name them as their
 * response; openapi.json lists each under components/schemas by the name api/route-table.ts gives it in SHAPES.
 * Objects are open (`looseObject`): a field added beyond the spec does not make the document a lie.
 */

export const UserSession = z.looseObject({
  id: z.number().int(),
  email: z.string(),
  email_verified: z.boolean(),
  signup_provider: z.string(),
  name: z.string().nullable(),
  roles: z.array(z.string()),
  company: z.looseObject({ id: z.number().int(), name: z.string(), email: z.string(), balance: z.number().int() }),
});
export const Me = UserSession.extend({ impersonated_by: z.number().int().nullable() });
export const LoginResponse = z.looseObject({ token: z.string().describe('JWT: send as Authorization: Bearer'), user: UserSession });
export const SignupResponse = LoginResponse.extend({ api_key: z.looseObject({ key: z.string(), name: z.string().nullable() }) });
export const CookieSession = z.looseObject({ user: Me, csrf_token: z.string() });
export const Impersonation = z.looseObject({ token: z.string(), user: UserSession.nullable(), impersonated_by: z.number().int().nullable() });
