// The dashboard session. The session token itself lives in an HttpOnly cookie that login and signup set
// (no script of this origin can read it, so neither can a captured page that ever ran here); the page
// keeps only what it needs in memory: the User session and the CSRF proof sent with every API call, both
// from GET /auth/session (after login, and after a reload).
import type { z } from 'zod';
import type { CookieSession, Me } from '../../../auth/auth-shapes.js';

/** The user of the session (`user` of GET /auth/session): the API's Me shape. */
export type UserSession = z.infer<typeof Me>;

/** What GET /auth/session and POST /auth/impersonation/end answer. */
export type SessionAnswer = z.infer<typeof CookieSession>;

let user: UserSession | null = null;
let csrf: string | null = null;

/** The proof the API asks of a request authenticated by the session cookie (X-CSRF-Token). */
export const csrfToken = (): string | null => csrf;

export function startSession(answer: SessionAnswer): void {
  user = answer.user;
  csrf = answer.csrf_token;
}

/** Forgets the session on this page (the cookie is cleared by POST /auth/logout, or has expired). */
export function endSession(): void {
  user = null;
  csrf = null;
}

export const currentUser = (): UserSession | null => user;
export const isAdmin = (): boolean => user?.roles.includes('admin') ?? false;

/** Acting as another user: the server keeps the admin's session aside (POST /admin/impersonate). */
export const impersonating = (): boolean => (user?.impersonated_by ?? null) !== null;
