import Router from '@koa/router';
import type { Db } from '../../core/db/connect.js';
import { ApiError } from '../../core/errors.js';
import { readParams } from '../../core/request/read-params.js';
import { FORGOT_PASSWORD_PARAMS, LOGIN_PARAMS, RESET_PASSWORD_PARAMS, SIGNUP_PARAMS, VERIFY_EMAIL_PARAMS } from '../auth/auth-params.js';
import type { AuthService } from '../auth/auth-service.js';
import { loadUserSession } from '../auth/user-session.js';
import { jsonBodyParams } from '../http/json-body.js';
import { callerOf, type AppContext, type AppState } from '../http/state.js';

const ok = (ctx: AppContext): void => {
  ctx.body = { success: true, data: { ok: true } };
};

/**
 * POST /auth/signup, /auth/login, /auth/forgot-password, /auth/reset-password and /auth/verify-email:
 * how a client gets a credential, so they take none. Bodies are JSON (the query is read too).
 */
export function publicAuthRoutes(auth: AuthService): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/auth' });
  // captcha_token is reported missing with the other fields, so one 400 names everything to fix.
  const captcha = (): 'captcha_token'[] => (auth.captchaRequired ? ['captcha_token'] : []);

  router.post('/signup', async (ctx) => {
    const p = readParams(SIGNUP_PARAMS, jsonBodyParams(ctx), ['email', 'password', ...captcha()]);
    ctx.body = { success: true, data: await auth.signup({ ...p, email: p.email as string, password: p.password as string }, ctx.ip) };
  });

  router.post('/login', async (ctx) => {
    const p = readParams(LOGIN_PARAMS, jsonBodyParams(ctx), ['email', 'password']);
    ctx.body = { success: true, data: await auth.login({ email: p.email as string, password: p.password as string }, ctx.ip) };
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

/** GET /auth/me: the User session of the caller, with `impersonated_by` (the admin acting, or null). */
export function sessionRoutes(db: Db): Router<AppState> {
  const router = new Router<AppState>({ prefix: '/auth' });
  router.get('/me', async (ctx) => {
    const caller = callerOf(ctx);
    // Keys made before dashboard users existed (and the operator's own scripts) may belong to no user.
    const user = caller.userId === null ? null : await loadUserSession(db, caller.userId);
    if (!user) throw new ApiError(404, 'NOT_FOUND', 'No user is behind this credential: it is an account key without a user');
    ctx.body = { success: true, data: { ...user, impersonated_by: caller.impersonatedBy ?? null } };
  });
  return router;
}
