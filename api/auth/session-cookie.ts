import type { JwtService } from '../accounts/jwt.js';
import type { AppContext } from '../http/state.js';

/**
 * The dashboard's session lives in an HttpOnly cookie, never where a page script can read it: a captured
 * page that ever ran on this origin could read localStorage and act as the user. The token itself is still
 * answered by login and signup for API clients, which send it as `Authorization: Bearer`.
 */
export const SESSION_COOKIE = 'shotfarm_session';
/** The admin's own session while they act as another user (POST /admin/impersonate through the cookie). */
export const ADMIN_SESSION_COOKIE = 'shotfarm_admin_session';
/**
 * The header that proves a cookie-authenticated request was made by the dashboard: its value is the CSRF
 * proof of the session (JwtService.csrfToken), which only same-origin script can learn (GET /auth/session
 * answers it). A custom header also forces a CORS preflight on any cross-origin request,
 * which this service never grants. api/dashboard/ui/src/api.ts sends it.
 */
export const CSRF_HEADER = 'X-CSRF-Token';

/**
 * Only the API reads the cookie; the dashboard's page and assets never need it. SameSite=Strict: the
 * dashboard calls the API with same-origin fetches only, so a cookie that never rides a request started
 * by another site costs it nothing (Lax would add top-level cross-site GET navigations, and GET
 * /screenshot/create spends credits). Secure when the request came over https (directly, or per
 * X-Forwarded-Proto from a trusted proxy: SHOTFARM_TRUSTED_PROXIES).
 */
const COOKIE_PATH = '/api/v1';

function cookieHeader(ctx: AppContext, name: string, value: string, maxAgeSeconds: number): string {
  return [`${name}=${value}`, `Path=${COOKIE_PATH}`, `Max-Age=${Math.max(0, Math.floor(maxAgeSeconds))}`, 'HttpOnly', 'SameSite=Strict', ...(ctx.state.https ? ['Secure'] : [])].join('; ');
}

/** Sets a cookie holding a session token, for as long as the token is valid. */
function setTokenCookie(ctx: AppContext, jwt: JwtService, name: string, token: string): void {
  ctx.append('Set-Cookie', cookieHeader(ctx, name, token, jwt.expiresAt(token) - Date.now() / 1000));
}

/** Makes `token` the browser's session (login, signup, the end of an impersonation). */
export function setSessionCookie(ctx: AppContext, jwt: JwtService, token: string): void {
  setTokenCookie(ctx, jwt, SESSION_COOKIE, token);
}

/** Acting as another user: the admin's session is kept aside, the impersonation token becomes the session. */
export function beginImpersonationCookies(ctx: AppContext, jwt: JwtService, adminToken: string, impersonationToken: string): void {
  setTokenCookie(ctx, jwt, ADMIN_SESSION_COOKIE, adminToken);
  setTokenCookie(ctx, jwt, SESSION_COOKIE, impersonationToken);
}

export function clearAdminSessionCookie(ctx: AppContext): void {
  ctx.append('Set-Cookie', cookieHeader(ctx, ADMIN_SESSION_COOKIE, '', 0));
}

/** Logging out: both cookies go. */
export function clearSessionCookies(ctx: AppContext): void {
  ctx.append('Set-Cookie', cookieHeader(ctx, SESSION_COOKIE, '', 0));
  clearAdminSessionCookie(ctx);
}

/** The session token of the cookie, or null. */
export function sessionCookieOf(ctx: AppContext, name: string = SESSION_COOKIE): string | null {
  return ctx.cookies.get(name) || null;
}
