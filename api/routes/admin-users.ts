import Router from '@koa/router';
import type { Config } from '../../core/config/config.js';
import type { Db } from '../../core/db/connect.js';
import { fieldError, forbidden, notFound } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { DEFAULT_PAGE_SIZE } from '../../core/request/endpoint-params.js';
import { readParams } from '../../core/request/read-params.js';
import { changeCredits } from '../accounts/admin-credits.js';
import type { JwtService } from '../accounts/jwt.js';
import { CREDITS_PARAMS, IMPERSONATE_PARAMS, OUTBOX_PARAMS, USERS_PARAMS } from '../auth/auth-params.js';
import { beginImpersonationCookies } from '../auth/session-cookie.js';
import { loadUserSession, toUserSession, userSessionQuery } from '../auth/user-session.js';
import { jsonBodyParams } from '../http/json-body.js';
import { queryOf } from '../http/query.js';
import { callerOf, requireAdmin, type AppContext, type AppState } from '../http/state.js';

/** The admin's user id; admin roles come from a user, so a credential without one is refused. */
function adminUserId(ctx: AppContext): { userId: number; impersonatedBy: number | null } {
  const caller = requireAdmin(ctx);
  if (caller.userId === null) throw forbidden('This operation needs an admin user');
  return { userId: caller.userId, impersonatedBy: caller.impersonatedBy ?? null };
}

/** LIKE's wildcards in a search text are matched literally. */
const likeEscape = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * POST /admin/impersonate, GET /admin/users, POST /admin/credits and GET /admin/outbox: admin role only
 * (403 to everyone else).
 */
export function adminUserRoutes(deps: { db: Db; jwt: JwtService; config: Config; log: Logger }): Router<AppState> {
  const { db, jwt, config, log } = deps;
  const router = new Router<AppState>({ prefix: '/admin' });

  router.post('/impersonate', async (ctx) => {
    const admin = adminUserId(ctx);
    // Impersonation does not chain: the audit trail names one admin, the one who really acts.
    if (admin.impersonatedBy !== null) throw forbidden('An impersonation token cannot impersonate');
    const { user_id: userId } = readParams(IMPERSONATE_PARAMS, jsonBodyParams(ctx), ['user_id']);
    if (userId === admin.userId) throw fieldError('user_id', 'is you: log in instead');
    const target = await db('users').where({ id: userId }).first('id', 'company_id', 'session_version');
    if (!target) throw notFound('User');
    const token = await jwt.sign(
      { userId: Number(target.id), companyId: Number(target.company_id), impersonatedBy: admin.userId, sessionVersion: Number(target.session_version) },
      config.auth.impersonationTtlSeconds,
    );
    log.info({ audit: 'impersonation', user_id: Number(target.id), impersonated_by: admin.userId, request_id: ctx.state.requestId }, 'impersonation token issued');
    // Through the dashboard's cookie, the impersonation becomes the cookie session (the admin's kept aside).
    const adminCookie = callerOf(ctx).sessionCookie;
    if (adminCookie !== undefined) beginImpersonationCookies(ctx, jwt, adminCookie, token);
    ctx.body = { success: true, data: { token, user: await loadUserSession(db, Number(target.id)), impersonated_by: admin.userId } };
  });

  router.get('/users', async (ctx) => {
    requireAdmin(ctx);
    const p = readParams(USERS_PARAMS, queryOf(ctx));
    const query = userSessionQuery(db).orderBy('users.id', 'desc').limit(p.limit ?? DEFAULT_PAGE_SIZE).offset(p.offset ?? 0);
    if (p.email) query.whereRaw("users.email like ? escape '\\'", [`%${likeEscape(p.email.toLowerCase())}%`]);
    const rows = await query;
    ctx.body = { success: true, data: rows.map((r: Record<string, unknown>) => ({ ...toUserSession(r), created_at: new Date(r.created_at as string).toISOString() })) };
  });

  router.post('/credits', async (ctx) => {
    const admin = adminUserId(ctx);
    const p = readParams(CREDITS_PARAMS, jsonBodyParams(ctx), ['company_id', 'amount', 'reason']);
    if (!p.reason?.trim()) throw fieldError('reason', 'must say why');
    const change = await changeCredits(db, admin.userId, { companyId: p.company_id as number, amount: p.amount as number, reason: p.reason.trim() });
    log.info({ audit: 'credits', admin_user_id: admin.userId, impersonated_by: admin.impersonatedBy, ...change }, 'credits changed by an admin');
    ctx.body = { success: true, data: change };
  });

  router.get('/outbox', async (ctx) => {
    requireAdmin(ctx);
    const p = readParams(OUTBOX_PARAMS, queryOf(ctx));
    const query = db('email_outbox').orderBy('id', 'desc').limit(p.limit ?? DEFAULT_PAGE_SIZE).offset(p.offset ?? 0);
    if (p.status) query.where({ status: p.status });
    const rows = await query;
    ctx.body = {
      success: true,
      data: rows.map((r) => ({
        id: Number(r.id), user_id: r.user_id === null ? null : Number(r.user_id), to: r.to_address, subject: r.subject, text: r.body_text, purpose: r.purpose,
        status: r.status, error: r.error, created_at: new Date(r.created_at).toISOString(), sent_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
      })),
    };
  });

  return router;
}
