// The dashboard session. The session token itself lives in an HttpOnly cookie that login and signup set
// (no script of this origin can read it, so neither can a captured page that ever ran here); the page
// keeps only what it needs in memory: the User session and the CSRF proof sent with every API call, both
// from GET /auth/session (after login, and after a reload).

export interface UserSession {
  id: number;
  email: string;
  email_verified: boolean;
  signup_provider: string;
  name: string | null;
  roles: string[];
  company: { id: number; name: string; email: string; balance: number };
  impersonated_by?: number | null;
}

/** What GET /auth/session and POST /auth/impersonation/end answer. */
export interface SessionAnswer {
  user: UserSession;
  csrf_token: string;
}

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
