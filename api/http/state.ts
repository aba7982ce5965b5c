import type { ParameterizedContext } from 'koa';

/** Who is calling: set by authenticate(), read by every route. */
export interface Caller {
  companyId: number;
  /** the API key used, or null for a dashboard JWT */
  apiKeyId: number | null;
  userId: number | null;
  /** a stable name of the credential, for rate limits and idempotency keys */
  credential: string;
}

export interface AppState {
  requestId: string;
  caller?: Caller;
}

export type AppContext = ParameterizedContext<AppState>;

/** The caller of an authenticated route (authenticate() runs before every /api/v1 route). */
export function callerOf(ctx: AppContext): Caller {
  if (!ctx.state.caller) throw new Error('route reached without authentication');
  return ctx.state.caller;
}
