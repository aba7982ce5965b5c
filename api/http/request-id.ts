import { randomUUID } from 'node:crypto';
import type { Next } from 'koa';
import type { AppContext } from './state.js';

/** Gives every request an id (echoed in X-Request-Id and in error details) to find it in the logs. */
export async function requestId(ctx: AppContext, next: Next): Promise<void> {
  const given = ctx.get('X-Request-Id');
  // Accept a caller's id only when it is short and plain, so it cannot inject into logs or headers.
  ctx.state.requestId = /^[A-Za-z0-9._-]{8,64}$/.test(given) ? given : randomUUID();
  ctx.set('X-Request-Id', ctx.state.requestId);
  await next();
}
