// The dashboard session: the JWT from login or signup, kept in localStorage so a reload stays logged in,
// and the User session (GET /auth/me) it belongs to.

const TOKEN_KEY = 'shotfarm.token';
/** The admin's own token while they act as another user (POST /admin/impersonate). */
const ADMIN_TOKEN_KEY = 'shotfarm.admin-token';

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

let user: UserSession | null = null;

export const token = (): string | null => localStorage.getItem(TOKEN_KEY);

export function startSession(jwt: string, session: UserSession | null = null): void {
  localStorage.setItem(TOKEN_KEY, jwt);
  user = session;
}

export function endSession(): void {
  localStorage.removeItem(TOKEN_KEY);
  localStorage.removeItem(ADMIN_TOKEN_KEY);
  user = null;
}

export const currentUser = (): UserSession | null => user;
export const setCurrentUser = (session: UserSession | null): void => {
  user = session;
};
export const isAdmin = (): boolean => user?.roles.includes('admin') ?? false;

/** Acting as another user: keep the admin's token to come back to. */
export function beginImpersonation(jwt: string): void {
  const own = token();
  if (own) localStorage.setItem(ADMIN_TOKEN_KEY, own);
  startSession(jwt);
}

export const impersonating = (): boolean => localStorage.getItem(ADMIN_TOKEN_KEY) !== null;

export function endImpersonation(): void {
  const own = localStorage.getItem(ADMIN_TOKEN_KEY);
  localStorage.removeItem(ADMIN_TOKEN_KEY);
  if (own) startSession(own);
  else endSession();
}
