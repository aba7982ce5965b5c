import { z } from 'zod';
import { ApiError, forbidden, invalidApiKey } from '../../core/errors.js';
import type { JwtService } from '../accounts/jwt.js';
import { CHANGE_PASSWORD_PARAMS, FORGOT_PASSWORD_PARAMS, LOGIN_PARAMS, RESET_PASSWORD_PARAMS, SIGNUP_PARAMS, VERIFY_EMAIL_PARAMS } from './auth-params.js';
import { ADMIN_SESSION_COOKIE, clearAdminSessionCookie, clearSessionCookies, sessionCookieOf, setSessionCookie } from './session-cookie.js';
import { sessionCaller } from './session-token.js';
import { loadUserSession } from './user-session.js';
import { callerOf, type AppContext } from '../http/state.js';
import { Ack } from '../http/common-shapes.js';
import { CookieSession, LoginResponse, Me, SignupResponse } from './auth-shapes.js';
import { defineRoute, type ApiRoute, type RouteDeps } from '../http/route.js';

const tag = 'Users and sessions';

/** Sec-Fetch-Site of a request this origin's page made, or a non-browser client (none sent) or the user typed. */
const FETCHED_BY_THIS_ORIGIN = new Set(['', 'same-origin', 'none']);

const ack = { data: Ack, description: '{ok: true}' };

/** A fresh login or signup: the token becomes the browser's session cookie, and any impersonation ends. */
function startCookieSession(ctx: AppContext, jwt: JwtService, token: string): void {
  setSessionCookie(ctx, jwt, token);
  clearAdminSessionCookie(ctx);
}

/** captcha_token is reported missing with the other fields, so one 400 names everything to fix. */
const withCaptcha =
  (...fields: string[]) =>
  (deps: RouteDeps): readonly string[] =>
    deps.auth.captchaRequired ? [...fields, 'captcha_token'] : fields;

/**
 * POST /auth/signup, /auth/login, /auth/forgot-password, /auth/reset-password and /auth/verify-email:
 * how a client gets a credential, so they take none. Their fields (passwords, tokens) come in the JSON
 * body only. Login and signup answer the token (API clients send it as a Bearer header) and also set it
 * as the dashboard's HttpOnly session cookie; GET /auth/session and POST /auth/logout read and end that cookie.
 * GET /auth/me and POST /auth/impersonation/end take the caller's credential.
 */
export const AUTH_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'post',
    path: '/auth/signup',
    operationId: 'signup',
    tag,
    credentials: 'anonymous',
    summary: 'Create an account, its user and a first API key; captcha_token required in production',
    body: SIGNUP_PARAMS,
    required: withCaptcha('email', 'password'),
    bodyOnly: true,
    response: { data: SignupResponse, description: 'The session token, the user and the first API key (also sets the session cookie)' },
    handler: async (ctx, { auth }, p) => {
      const data = await auth.signup({ ...p, email: p.email as string, password: p.password as string }, ctx.ip);
      startCookieSession(ctx, auth.jwt, data.token);
      return data;
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/login',
    operationId: 'login',
    tag,
    credentials: 'anonymous',
    summary: 'A session token (JWT) and the User session; also sets them as the HttpOnly session cookie',
    body: LOGIN_PARAMS,
    required: ['email', 'password'],
    bodyOnly: true,
    response: { data: LoginResponse, description: 'The session token and the user' },
    handler: async (ctx, { auth }, p) => {
      const data = await auth.login({ email: p.email as string, password: p.password as string }, ctx.ip);
      startCookieSession(ctx, auth.jwt, data.token);
      return data;
    },
  }),
  // The dashboard after login or a reload: who the session cookie is, and its CSRF proof; null without a valid
  // cookie (not a 401: being logged out is the normal state of a first visit). Reads nothing but the
  // caller's own session, and no other origin can read the answer (no CORS), so it needs no proof itself.
  // Should that ever change, a browser still says who asks: a request another origin started (a sibling
  // site, a sandboxed document) gets null, never the proof.
  defineRoute({
    method: 'get',
    path: '/auth/session',
    operationId: 'getCookieSession',
    tag,
    credentials: 'anonymous',
    summary: "The session cookie's {user, csrf_token}, or null without a valid one",
    response: { data: CookieSession.nullable(), description: 'The cookie session, or null' },
    handler: async (ctx, { auth }) => {
      const token = FETCHED_BY_THIS_ORIGIN.has(ctx.get('Sec-Fetch-Site')) ? sessionCookieOf(ctx) : null;
      ctx.set('Cache-Control', 'no-store');
      return token === null ? null : auth.cookieSession(token);
    },
  }),
  // Ends the session for good: the cookie's token, the admin's session kept aside during an impersonation
  // and a Bearer token stop working on every replica (api/auth/session-revocations.ts), and the cookies are
  // cleared. It takes no credential (an expired cookie must still be clearable): the worst another page can do
  // with it is log the browser out, and a Bearer token is ended only by whoever holds it.
  defineRoute({
    method: 'post',
    path: '/auth/logout',
    operationId: 'logout',
    tag,
    credentials: 'anonymous',
    summary: 'End the session: its token (the cookie, an admin session kept aside, or a Bearer token) stops working everywhere; clears the cookies',
    response: ack,
    handler: async (ctx, { auth }) => {
      const bearerToken = /^Bearer\s+(\S+)$/i.exec(ctx.get('Authorization'))?.[1] ?? null;
      await auth.logout([sessionCookieOf(ctx), sessionCookieOf(ctx, ADMIN_SESSION_COOKIE), bearerToken]);
      clearSessionCookies(ctx);
      return { ok: true };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/forgot-password',
    operationId: 'forgotPassword',
    tag,
    credentials: 'anonymous',
    summary: 'Email a password-reset link; the answer is {ok: true} whether or not the email has an account',
    body: FORGOT_PASSWORD_PARAMS,
    required: withCaptcha('email'),
    bodyOnly: true,
    response: ack,
    handler: async (ctx, { auth }, p) => {
      await auth.forgotPassword({ ...p, email: p.email as string }, ctx.ip);
      return { ok: true };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/reset-password',
    operationId: 'resetPassword',
    tag,
    credentials: 'anonymous',
    summary: 'Set a new password with the token of the reset email (once); ends older sessions',
    body: RESET_PASSWORD_PARAMS,
    required: withCaptcha('token', 'password'),
    bodyOnly: true,
    response: ack,
    handler: async (ctx, { auth }, p) => {
      await auth.resetPassword({ ...p, token: p.token as string, password: p.password as string }, ctx.ip);
      return { ok: true };
    },
  }),
  defineRoute({
    method: 'post',
    path: '/auth/verify-email',
    operationId: 'verifyEmail',
    tag,
    credentials: 'anonymous',
    summary: 'Verify the email with the token of the verification email (once)',
    body: VERIFY_EMAIL_PARAMS,
    required: ['token'],
    bodyOnly: true,
    response: ack,
    handler: async (_ctx, { auth }, p) => {
      await auth.verifyEmail({ token: p.token as string });
      return { ok: true };
    },
  }),

  // A cookie session gets its new token as the cookie; an API client takes it from the answer.
  defineRoute({
    method: 'post',
    path: '/auth/change-password',
    operationId: 'changePassword',
    tag,
    credentials: 'account',
    summary: 'Set a new password with the current one; ends every session of the user signed before (this one too) and answers a new one',
    body: CHANGE_PASSWORD_PARAMS,
    required: ['current_password', 'password'],
    bodyOnly: true,
    response: { data: LoginResponse, description: 'A new session token and the user (also set as the session cookie when the request came with it)' },
    handler: async (ctx, { auth }, p) => {
      const caller = callerOf(ctx);
      const data = await auth.changePassword(caller, { current_password: p.current_password as string, password: p.password as string }, ctx.ip);
      if (caller.sessionCookie !== undefined) setSessionCookie(ctx, auth.jwt, data.token);
      return data;
    },
  }),
  defineRoute({
    method: 'get',
    path: '/auth/me',
    operationId: 'getMe',
    tag,
    credentials: 'account',
    summary: 'The User session of the caller, with impersonated_by',
    response: { data: Me, description: 'The user' },
    handler: async (ctx, { db }) => {
      const caller = callerOf(ctx);
      // Keys made before dashboard users existed (and the operator's own scripts) may belong to no user.
      const user = caller.userId === null ? null : await loadUserSession(db, caller.userId);
      if (!user) throw new ApiError(404, 'NOT_FOUND', 'No user is behind this credential: it is an account key without a user');
      return { ...user, impersonated_by: caller.impersonatedBy ?? null };
    },
  }),
  // Back to the admin's own cookie session, kept aside when the dashboard impersonated (POST
  // /admin/impersonate through the cookie); answers the admin's session and CSRF proof.
  defineRoute({
    method: 'post',
    path: '/auth/impersonation/end',
    operationId: 'endImpersonation',
    tag,
    credentials: 'account',
    summary: "Back to the admin's own cookie session after acting as another user in the dashboard",
    response: { data: z.looseObject({ user: Me, csrf_token: z.string() }), description: "The admin's session" },
    handler: async (ctx, { db, jwt }) => {
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
      return { user: { ...user, impersonated_by: null }, csrf_token: jwt.csrfToken(adminToken) };
    },
  }),
];
