// The session's round trips: restoring it after a reload, logging out, acting as another user and back.
// The cookie is the server's business (set and cleared by these calls); the page keeps what they answer.
import { api } from './api.js';
import { endSession, startSession, type SessionAnswer, type UserSession } from './session.js';

/** GET /auth/session: the cookie's session, or null when there is none (logged out, expired). */
export async function restoreSession(): Promise<UserSession | null> {
  const answer = await api<SessionAnswer | null>('/auth/session');
  if (answer) startSession(answer);
  else endSession();
  return answer?.user ?? null;
}

/** POST /auth/logout clears the cookie; the page forgets the session even if the call fails. */
export async function logOut(): Promise<void> {
  try {
    await api('/auth/logout', { method: 'POST' });
  } finally {
    endSession();
  }
}

/** POST /admin/impersonate through the cookie: the server makes the user's token the session. */
export async function actAs(userId: number): Promise<UserSession> {
  await api('/admin/impersonate', { json: { user_id: userId } });
  const user = await restoreSession();
  if (!user) throw new Error('The session was lost while switching users: log in again');
  return user;
}

/** POST /auth/impersonation/end: back to the admin's own session, kept aside by the server. */
export async function stopActing(): Promise<void> {
  try {
    startSession(await api<SessionAnswer>('/auth/impersonation/end', { method: 'POST' }));
  } catch (err) {
    endSession();
    throw err;
  }
}
