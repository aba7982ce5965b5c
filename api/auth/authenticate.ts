import type { Next } from 'koa';
import type { Db } from '../db/connect.js';
import { ApiError, invalidApiKey } from '../../core/errors.js';
import { findApiKey } from '../accounts/api-keys.js';
import type { ApiKeyCache } from './key-cache.js';
import type { JwtService } from '../accounts/jwt.js';
import { CSRF_HEADER, sessionCookieOf } from './session-cookie.js';
import { sessionCaller } from './session-token.js';
import type { AppContext, Caller } from '../http/state.js';

/** How fresh an API key's last_used_at is kept: a minute is what a "last used" column is read at. */
const LAST_USED_RESOLUTION_MS = 60_000;

const csrfRejected = (): ApiError =>
  new ApiError(
    403,
    'CSRF_REJECTED',
    `The session cookie counts only with its ${CSRF_HEADER} header (the proof GET /auth/session answers); API clients send an API key or Authorization: Bearer instead`,
  );

/** The caller of an API key (null: no live key), its last use noted; through the key cache when there is one. */
async function keyCaller(db: Db, key: string, keys?: ApiKeyCache): Promise<Caller | null> {
  const holder = await (keys ? keys.find(key) : findApiKey(db, key));
  if (!holder) return null;
  const { key: row, roles } = holder;
  // last_used_at is informative; updating it must never slow or fail the request, and a key used many
  // times a second writes it at most once a minute (the row was just read: no extra query to decide).
  const lastUsed = row.last_used_at;
  if (!lastUsed || Date.now() - new Date(lastUsed).getTime() >= LAST_USED_RESOLUTION_MS) {
    db('api_keys')
      .where({ id: row.id })
      .update({ last_used_at: db.fn.now() })
      .catch(() => undefined);
    // The row may be the cache's: the requests of the next seconds see it written and write nothing.
    row.last_used_at = new Date();
  }
  return { companyId: Number(row.company_id), apiKeyId: Number(row.id), userId: row.user_id === null ? null : Number(row.user_id), credential: `key:${row.id}`, roles };
}

/**
 * Accepts the spec's three credentials: `X-API-KEY` header, `key` query parameter, or
 * `Authorization: Bearer` (a dashboard JWT, or an API key); then the dashboard's session cookie. The first one present is the one
 * checked; an invalid one is a 401 even if another would have been valid, so a client never acts under an
 * identity it did not intend.
 *
 * The cookie rides every request the browser makes to /api/v1, whoever started it, so it authenticates
 * only a request that also carries the session's CSRF proof, whatever the method: the spec has GETs that
 * change things (create spends credits, delete deletes), and a page that could make the browser load an
 * API URL (an <img>, a link) must not act as the user. Without the proof: 403, nothing done.
 *
 * `keys`: the control plane's key cache (key-cache.ts); without it every request looks its key up.
 */
export function authenticate(db: Db, jwt: JwtService, keys?: ApiKeyCache) {
  return async function authenticateMiddleware(ctx: AppContext, next: Next): Promise<void> {
    const headerKey = ctx.get('X-API-KEY');
    const queryKey = new URLSearchParams(ctx.querystring).get('key') ?? '';
    const authorization = ctx.get('Authorization');
    const key = headerKey || queryKey;
    const cookie = sessionCookieOf(ctx);
    if (key) {
      const caller = await keyCaller(db, key.trim(), keys);
      if (!caller) throw invalidApiKey('Invalid API key');
      ctx.state.caller = caller;
    } else if (/^Bearer\s+\S+$/i.test(authorization)) {
      // A dashboard token, or an API key: MCP clients send their credential as a bearer token (beyond-v1.md part 7).
      const token = authorization.replace(/^Bearer\s+/i, '');
      const caller = (await sessionCaller(db, jwt, token)) ?? (await keyCaller(db, token, keys));
      if (!caller) throw invalidApiKey('Invalid or expired token');
      ctx.state.caller = caller;
    } else if (cookie) {
      const caller = await sessionCaller(db, jwt, cookie);
      if (!caller) throw invalidApiKey('Invalid or expired session: log in again');
      if (!jwt.csrfProofMatches(cookie, ctx.get(CSRF_HEADER))) throw csrfRejected();
      ctx.state.caller = { ...caller, sessionCookie: cookie };
    } else {
      throw invalidApiKey('Missing API key: pass it as the key query parameter, the X-API-KEY header or a Bearer token');
    }
    (ctx.state.caller as Caller).requestId = ctx.state.requestId;
    await next();
  };
}
