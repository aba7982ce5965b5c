import type { Next } from 'koa';
import { forwardedClient, TrustedProxies } from '../../core/net/forwarded-client.js';
import type { AppContext } from './state.js';

/**
 * The one owner of "who is the client": sets `ctx.ip` (Koa's request.ip, which the limiters of signup,
 * login and password reset, the captcha's remoteip and the logs read) from the connection's peer and,
 * only when that peer is a configured trusted proxy, X-Forwarded-For (core/net/forwarded-client.ts).
 * Koa's own `app.proxy` stays off: it believes the header from any peer.
 */
export function clientAddress(trustedProxies: readonly string[]) {
  const trusted = new TrustedProxies(trustedProxies);
  return async function clientAddressMiddleware(ctx: AppContext, next: Next): Promise<void> {
    ctx.request.ip = forwardedClient(ctx.req.socket.remoteAddress ?? '', ctx.req.headers['x-forwarded-for'], trusted);
    await next();
  };
}
