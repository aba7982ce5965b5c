import Router from '@koa/router';
import type { Db } from '../../core/db/connect.js';
import { ApiError, forbidden, invalidApiKey } from '../../core/errors.js';
import type { JwtService } from '../accounts/jwt.js';
import { readParams } from '../../core/request/read-params.js';
import { FORGOT_PASSWORD_PARAMS, LOGIN_PARAMS, RESET_PASSWORD_PARAMS, SIGNUP_PARAMS, VERIFY_EMAIL_PARAMS } from '../auth/auth-params.js';
import type { AuthService } from '../auth/auth-service.js';
import { ADMIN_SESSION_COOKIE, clearAdminSessionCookie, clearSessionCookies, sessionCookieOf, setSessionCookie } from '../auth/session-cookie.js';
import { sessionCaller } from '../auth/session-token.js';
import { loadUserSession } from '../auth/user-session.js';
import { jsonBodyParams } from '../http/json-body.js';
import { callerOf, type AppContext, type AppState } from '../http/state.js';

/** Sec-Fetch-Site of a request this origin's page made, or a non-browser client (none sent) or the user typed. */
const FETCHED_BY_THIS_ORIGIN = new Set(['', 'same-origin', 'none']);

const ok = (ctx: AppContext): void => {
  ctx.body = { success: true, data: { ok: true } };
};

/** A fresh login or signup: the token becomes the browser's session cookie, and any impersonation ends. */
function startCookieSession(ctx: AppContext, jwt: JwtService, token: string): void {
  setSessionCookie(ctx, jwt, token);
  clearAdminSessionCookie(ctx);
}

/**
 * POST /auth/signup, /auth/login, /auth/forgot-password, /auth/reset-password and /auth/verify-email:
 * how a client gets a credential, so they take none. Bodies are JSON (the query is read too).
 * Login and signup answer the token (API clients send it as a Bearer header) and also set it as the
 * dashboard's HttpOnly session cookie; GET /auth/session and POST /auth/logout read and end that cookie.
 */
export function publicAuthRoutes(auth: AuthService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/auth' });
  // captcha_token is reported missing with the other fields, so one 400 names everything to fix.
  const captcha = (): 'captcha_token'[] => (auth.captchaRequired ? ['captcha_token'] : []);

  router.post('/signup', async (ctx) => {
    const p = readParams(SIGNUP_PARAMS, jsonBodyParams(ctx), ['email', 'password', ...captcha()]);
    const data = await auth.signup({ ...p, email: p.email as string, password: p.password as string }, ctx.ip);
    startCookieSession(ctx, auth.jwt, data.token);
    ctx.body = { success: true, data };
  });

  router.post('/login', async (ctx) => {
    const p = readParams(LOGIN_PARAMS, jsonBodyParams(ctx), ['email', 'password']);
    const data = await auth.login({ email: p.email as string, password: p.password as string }, ctx.ip);
    startCookieSession(ctx, auth.jwt, data.token);
    ctx.body = { success: true, data };
  });

  // The dashboard after login or a reload: who the session cookie is, and its CSRF proof; null without a valid
  // cookie (not a 401: being logged out is the normal state of a first visit). Reads nothing but the
  // caller's own session, and no other origin can read the answer (no CORS), so it needs no proof itself.
  // Should that ever change, a browser still says who asks: a request another origin started (a sibling
  // site, a sandboxed document) gets null, never the proof.
  router.get('/session', async (ctx) => {
    const token = FETCHED_BY_THIS_ORIGIN.has(ctx.get('Sec-Fetch-Site')) ? sessionCookieOf(ctx) : null;
    ctx.set('Cache-Control', 'no-store');
    ctx.body = { success: true, data: token === null ? null : await auth.cookieSession(token) };
  });

  // Ends the cookie session (and an impersonation kept aside). It takes no credential (an expired cookie
  // must still be clearable): the worst another page can do with it is log the browser out.
  router.post('/logout', async (ctx) => {
    clearSessionCookies(ctx);
    ok(ctx);
  });

  router.post('/forgot-password', async (ctx) => {
    const p = readParams(FORGOT_PASSWORD_PARAMS, jsonBodyParams(ctx), ['email', ...captcha()]);
    await auth.forgotPassword({ ...p, email: p.email as string }, ctx.ip);
    ok(ctx);
  });

  router.post('/reset-password', async (ctx) => {
    const p = readParams(RESET_PASSWORD_PARAMS, jsonBodyParams(ctx), ['token', 'password', ...captcha()]);
    await auth.resetPassword({ ...p, token: p.token as string, password: p.password as string }, ctx.ip);
    ok(ctx);
  });

  router.post('/verify-email', async (ctx) => {
    const p = readParams(VERIFY_EMAIL_PARAMS, jsonBodyParams(ctx), ['token']);
    await auth.verifyEmail({ token: p.token as string });
    ok(ctx);
  });

  return router;
}

/**
 * GET /auth/me: the User session of the caller, with `impersonated_by` (the admin acting, or null).
 * POST /auth/impersonation/end: back to the admin's own cookie session, kept aside when the dashboard
 * impersonated (POST /admin/impersonate through the cookie); answers the admin's session and CSRF proof.
 */
export function sessionRoutes(db: Db, jwt: JwtService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/auth' });
  router.get('/me', async (ctx) => {
    const caller = callerOf(ctx);
    // Keys made before dashboard users existed (and the operator's own scripts) may belong to no user.
    const user = caller.userId === null ? null : await loadUserSession(db, caller.userId);
    if (!user) throw new ApiError(404, 'NOT_FOUND', 'No user is behind this credential: it is an account key without a user');
    ctx.body = { success: true, data: { ...user, impersonated_by: caller.impersonatedBy ?? null } };
  });
  router.post('/impersonation/end', async (ctx) => {
    const caller = callerOf(ctx);
    if (caller.sessionCookie === undefined || !caller.impersonatedBy) throw forbidden('Only a dashboard session acting as another user can end an impersonation');
    const adminToken = sessionCookieOf(ctx, ADMIN_SESSION_COOKIE);
    const admin = adminToken === null ? null : await sessionCaller(db, jwt, adminToken);
    if (adminToken === null || admin === null || admin.userId !== caller.impersonatedBy || admin.impersonatedBy !== null) {
      // The admin's own session is gone (expired, password reset): nothing to go back to.
      clearSessionCookies(ctx);
      throw invalidApiKey('The admin session kept aside is no longer valid: log in again');
    }
    setSessionCookie(ctx, jwt, adminToken);
    clearAdminSessionCookie(ctx);
    const user = await loadUserSession(db, admin.userId as number);
    ctx.body = { success: true, data: { user: { ...user, impersonated_by: null }, csrf_token: jwt.csrfToken(adminToken) } };
  });
  return router;
}
