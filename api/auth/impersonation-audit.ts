import type { Next } from 'koa';
import type { Logger } from '../../core/logger.js';
import type { AppContext } from '../http/state.js';

/**
 * Every request made with an impersonation token leaves one log line naming both users: the user acted as
 * (`user_id`) and the admin acting (`impersonated_by`), with what was asked and how it ended. Runs after
 * authenticate(); other requests pass untouched.
 */
export function impersonationAudit(log: Logger) {
  return async function impersonationAuditMiddleware(ctx: AppContext, next: Next): Promise<void> {
    const caller = ctx.state.caller;
    if (caller?.impersonatedBy === undefined || caller.impersonatedBy === null) return next();
    let status = 500;
    try {
      await next();
      status = ctx.status;
    } catch (err) {
      const s = (err as { status?: unknown } | null)?.status;
      status = typeof s === 'number' ? s : 500;
      throw err;
    } finally {
      log.info(
        {
          audit: 'impersonation',
          user_id: caller.userId,
          impersonated_by: caller.impersonatedBy,
          company_id: caller.companyId,
          method: ctx.method,
          path: ctx.path,
          status,
          request_id: ctx.state.requestId,
        },
        'request made with an impersonation token',
      );
    }
  };
}
