import type { Next } from 'koa';
import type { Db } from '../../core/db/connect.js';
import { invalidApiKey } from '../../core/errors.js';
import { findApiKey } from '../accounts/api-keys.js';
import type { JwtService } from '../accounts/jwt.js';
import type { AppContext } from './state.js';

/** How fresh an API key's last_used_at is kept: a minute is what a "last used" column is read at. */
const LAST_USED_RESOLUTION_MS = 60_000;

async function rolesOf(db: Db, userId: number): Promise<string[]> {
  const user = await db('users').where({ id: userId }).first('roles');
  return (user?.roles as string[] | undefined) ?? [];
}

/**
 * Accepts the spec's three credentials: `X-API-KEY` header, `key` query parameter, or
 * `Authorization: Bearer <JWT>`. The first one present is the one checked; an invalid one is a 401
 * even if another would have been valid, so a client never acts under an identity it did not intend.
 */
export function authenticate(db: Db, jwt: JwtService) {
  return async function authenticateMiddleware(ctx: AppContext, next: Next): Promise<void> {
    const headerKey = ctx.get('X-API-KEY');
    const queryKey = new URLSearchParams(ctx.querystring).get('key') ?? '';
    const authorization = ctx.get('Authorization');
    const key = headerKey || queryKey;
    if (key) {
      const holder = await findApiKey(db, key.trim());
      if (!holder) throw invalidApiKey('Invalid API key');
      const { key: row, roles } = holder;
      ctx.state.caller = { companyId: Number(row.company_id), apiKeyId: Number(row.id), userId: row.user_id === null ? null : Number(row.user_id), credential: `key:${row.id}`, roles };
      // last_used_at is informative; updating it must never slow or fail the request, and a key used many
      // times a second writes it at most once a minute (the row was just read: no extra query to decide).
      const lastUsed = row.last_used_at;
      if (!lastUsed || Date.now() - new Date(lastUsed).getTime() >= LAST_USED_RESOLUTION_MS) {
        db('api_keys').where({ id: row.id }).update({ last_used_at: db.fn.now() }).catch(() => undefined);
      }
    } else if (/^Bearer\s+\S+$/i.test(authorization)) {
      const claims = await jwt.verify(authorization.replace(/^Bearer\s+/i, ''));
      if (!claims) throw invalidApiKey('Invalid or expired token');
      const user = await db('users').where({ id: claims.userId, company_id: claims.companyId }).first('id', 'roles', 'session_version');
      // A password reset raises the session version: tokens signed before it no longer count.
      if (!user || Number(user.session_version) !== claims.sessionVersion) throw invalidApiKey('Invalid or expired token');
      // An impersonation token lives only as long as its admin exists and is still an admin.
      if (claims.impersonatedBy !== null && !(await rolesOf(db, claims.impersonatedBy)).includes('admin')) throw invalidApiKey('Invalid or expired token');
      ctx.state.caller = {
        companyId: claims.companyId, apiKeyId: null, userId: claims.userId, credential: `user:${claims.userId}`, roles: user.roles as string[], impersonatedBy: claims.impersonatedBy,
      };
    } else {
      throw invalidApiKey('Missing API key: pass it as the key query parameter, the X-API-KEY header or a Bearer token');
    }
    await next();
  };
}
