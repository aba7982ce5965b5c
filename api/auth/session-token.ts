import type { Db } from '../db/connect.js';
import type { JwtService } from '../accounts/jwt.js';
import type { Caller } from '../http/state.js';
import { notRevoked } from './session-revocations.js';

async function rolesOf(db: Db, userId: number): Promise<string[]> {
  const user = await db('users').where({ id: userId }).first('roles');
  return (user?.roles as string[] | undefined) ?? [];
}

/**
 * The caller a session token (Bearer header or session cookie) stands for, or null when it no longer
 * counts: tampered or expired, ended by a logout (api/auth/session-revocations.ts), its user gone, signed
 * before the user's last password reset or change (the session version rose), or an impersonation whose
 * admin is gone or no longer an admin.
 */
export async function sessionCaller(db: Db, jwt: JwtService, token: string): Promise<Caller | null> {
  const claims = await jwt.verify(token);
  if (!claims) return null;
  const user = await db('users').where({ id: claims.userId, company_id: claims.companyId }).whereNotExists(notRevoked(db, token)).first('id', 'roles', 'session_version');
  if (!user || Number(user.session_version) !== claims.sessionVersion) return null;
  if (claims.impersonatedBy !== null && !(await rolesOf(db, claims.impersonatedBy)).includes('admin')) return null;
  return {
    companyId: claims.companyId,
    apiKeyId: null,
    userId: claims.userId,
    credential: `user:${claims.userId}`,
    roles: user.roles as string[],
    impersonatedBy: claims.impersonatedBy,
  };
}
