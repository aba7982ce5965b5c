import { z } from 'zod';
import { fieldError, forbidden, notFound } from '../../core/errors.js';
import { DEFAULT_PAGE_SIZE } from '../options/endpoint-params.js';
import { changeCredits } from '../accounts/admin-credits.js';
import { CREDITS_PARAMS, IMPERSONATE_PARAMS, OUTBOX_PARAMS, USERS_PARAMS } from '../auth/auth-params.js';
import { beginImpersonationCookies } from '../auth/session-cookie.js';
import { loadUserSession, toUserSession, userSessionQuery } from '../auth/user-session.js';
import { callerOf, type AppContext } from '../http/state.js';
import { AdminUser, CreditChange, OutboxMessage } from './admin-shapes.js';
import { Impersonation } from '../auth/auth-shapes.js';
import { defineRoute, type ApiRoute } from '../http/route.js';

const tag = 'Admin';

/** The admin's user id; admin roles come from a user, so a credential without one is refused. */
function adminUserId(ctx: AppContext): { userId: number; impersonatedBy: number | null } {
  const caller = callerOf(ctx);
  if (caller.userId === null) throw forbidden('This operation needs an admin user');
  return { userId: caller.userId, impersonatedBy: caller.impersonatedBy ?? null };
}

/** LIKE's wildcards in a search text are matched literally. */
const likeEscape = (s: string): string => s.replace(/[\\%_]/g, (c) => `\\${c}`);

/** POST /admin/impersonate, GET /admin/users, POST /admin/credits and GET /admin/outbox: admin role only. */
export const ADMIN_USER_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'post',
    path: '/admin/impersonate',
    operationId: 'impersonateUser',
    tag,
    credentials: 'admin',
    summary: 'Admin: a token acting as another user, carrying impersonated_by',
    body: IMPERSONATE_PARAMS,
    required: ['user_id'],
    response: { data: Impersonation, description: 'The impersonation token and the user' },
    handler: async (ctx, { db, jwt, config, log }, { user_id: userId }) => {
      const admin = adminUserId(ctx);
      // Impersonation does not chain: the audit trail names one admin, the one who really acts.
      if (admin.impersonatedBy !== null) throw forbidden('An impersonation token cannot impersonate');
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
      return { token, user: await loadUserSession(db, Number(target.id)), impersonated_by: admin.userId };
    },
  }),
  defineRoute({
    method: 'get',
    path: '/admin/users',
    operationId: 'listUsers',
    tag,
    credentials: 'admin',
    summary: 'Admin: users with their account, roles and balance, newest first',
    query: USERS_PARAMS,
    response: { data: z.array(AdminUser), description: 'The users' },
    handler: async (_ctx, { db }, p) => {
      const query = userSessionQuery(db)
        .orderBy('users.id', 'desc')
        .limit(p.limit ?? DEFAULT_PAGE_SIZE)
        .offset(p.offset ?? 0);
      if (p.email) query.whereRaw("users.email like ? escape '\\'", [`%${likeEscape(p.email.toLowerCase())}%`]);
      const rows = await query;
      return rows.map((r: Record<string, unknown>) => ({ ...toUserSession(r), created_at: new Date(r.created_at as string).toISOString() }));
    },
  }),
  defineRoute({
    method: 'post',
    path: '/admin/credits',
    operationId: 'changeCredits',
    tag,
    credentials: 'admin',
    summary: 'Admin: grant or remove credits of an account through the ledger',
    body: CREDITS_PARAMS,
    required: ['company_id', 'amount', 'reason'],
    response: { data: CreditChange, description: 'The change and the new balance' },
    handler: async (ctx, { db, log }, p) => {
      const admin = adminUserId(ctx);
      if (!p.reason?.trim()) throw fieldError('reason', 'must say why');
      const change = await changeCredits(db, admin.userId, { companyId: p.company_id as number, amount: p.amount as number, reason: p.reason.trim() });
      log.info({ audit: 'credits', admin_user_id: admin.userId, impersonated_by: admin.impersonatedBy, ...change }, 'credits changed by an admin');
      return change;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/admin/outbox',
    operationId: 'listOutbox',
    tag,
    credentials: 'admin',
    summary: 'Admin: account email kept in the outbox, newest first',
    query: OUTBOX_PARAMS,
    response: { data: z.array(OutboxMessage), description: 'The messages' },
    handler: async (_ctx, { db }, p) => {
      const query = db('email_outbox')
        .orderBy('id', 'desc')
        .limit(p.limit ?? DEFAULT_PAGE_SIZE)
        .offset(p.offset ?? 0);
      if (p.status) query.where({ status: p.status });
      const rows = await query;
      return rows.map((r) => ({
        id: Number(r.id),
        user_id: r.user_id === null ? null : Number(r.user_id),
        to: r.to_address,
        subject: r.subject,
        text: r.body_text,
        purpose: r.purpose,
        status: r.status,
        error: r.error,
        created_at: new Date(r.created_at).toISOString(),
        sent_at: r.sent_at ? new Date(r.sent_at).toISOString() : null,
      }));
    },
  }),
];
