import type { ParameterizedContext } from 'koa';
import { forbidden } from '../../core/errors.js';

/** Who is calling: set by authenticate(), read by every route. */
export interface Caller {
  companyId: number;
  /** the API key used, or null for a dashboard JWT */
  apiKeyId: number | null;
  userId: number | null;
  /** a stable name of the credential, for rate limits and idempotency keys */
  credential: string;
  /** roles of the user behind the credential (an API key acts with its user's roles) */
  roles: string[];
  /** the admin acting as this user, when the credential is an impersonation token (POST /admin/impersonate) */
  impersonatedBy?: number | null;
  /** the session token, when the credential was the dashboard's session cookie (it answers the CSRF proof) */
  sessionCookie?: string;
  /** the id of the HTTP request acting (api/http/request-id.ts): the records it creates carry it */
  requestId?: string;
}

export interface AppState {
  requestId: string;
  caller?: Caller;
  /** the request came over https: directly, or through a trusted proxy that says so (api/http/client-address.ts) */
  https?: boolean;
  /** the request is a verified signed render link (api/auth/signed-links.ts): its answer may be kept by shared caches */
  signedLink?: true;
}

export type AppContext = ParameterizedContext<AppState>;

/** Admin-only routes answer 403 to everyone else. */
export function requireAdmin(ctx: AppContext): Caller {
  const caller = callerOf(ctx);
  if (!caller.roles.includes('admin')) throw forbidden('This operation needs the admin role');
  return caller;
}

/** The caller of an authenticated route (authenticate() runs before every /api/v1 route). */
export function callerOf(ctx: AppContext): Caller {
  if (!ctx.state.caller) throw new Error('route reached without authentication');
  return ctx.state.caller;
}
