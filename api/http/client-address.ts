import type { Next } from 'koa';
import { canonicalAddress, forwardedClient, TrustedProxies } from './forwarded-client.js';
import type { AppContext } from './state.js';

/**
 * The one owner of "who is the client": sets `ctx.ip` (Koa's request.ip, which the limiters of signup,
 * login and password reset, the captcha's remoteip and the logs read) from the connection's peer and,
 * only when that peer is a configured trusted proxy, X-Forwarded-For (api/http/forwarded-client.ts).
 * Koa's own `app.proxy` stays off: it believes the header from any peer. Likewise `ctx.state.https`: the
 * connection's TLS, or X-Forwarded-Proto `https` from a trusted proxy that ended TLS for us (the session
 * cookie is Secure then).
 */
export function clientAddress(trustedProxies: readonly string[]) {
  const trusted = new TrustedProxies(trustedProxies);
  return async function clientAddressMiddleware(ctx: AppContext, next: Next): Promise<void> {
    const peer = ctx.req.socket.remoteAddress ?? '';
    ctx.request.ip = forwardedClient(peer, ctx.req.headers['x-forwarded-for'], trusted);
    ctx.state.https = ctx.secure || (trusted.has(canonicalAddress(peer) ?? peer) && ctx.get('X-Forwarded-Proto').split(',')[0]?.trim().toLowerCase() === 'https');
    await next();
  };
}
