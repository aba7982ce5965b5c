import type { Next } from 'koa';
import { koaBody, type KoaBodyMiddlewareOptions } from 'koa-body';
import { fieldError } from '../../core/errors.js';
import type { AppContext } from './state.js';

/**
 * How deeply a request body may nest. The deepest body an operation takes is an app's settings inside
 * its JSON object (3 levels) or steps in a crawl (3); 32 leaves room for any honest client and stays far
 * below where code that walks a value recursively overflows the stack (JSON.stringify of one field of a
 * body nested 5,000 deep did: a 500, issue #14).
 */
export const MAX_BODY_DEPTH = 32;

/** Whether `value` nests deeper than `limit` (a scalar is depth 0); iterative, so no depth can overflow it. */
export function nestsDeeperThan(value: unknown, limit: number): boolean {
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    if (item === null || typeof item !== 'object') continue;
    if (depth + 1 > limit) return true;
    for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return false;
}

/**
 * What a body that could not be read becomes. Errors that carry a 4xx status are the parser's own
 * (413 too large, 415 unknown Content-Encoding, 400 malformed JSON or aborted upload) and are mapped by
 * the error envelope; the others come from decompressing the body (a truncated gzip body ends in
 * zlib's Z_BUF_ERROR, garbage in Z_DATA_ERROR or a Brotli code), so they are the client's bytes too.
 */
export function unreadableBody(error: Error & { status?: unknown }, ctx: AppContext): Error {
  if (typeof error.status === 'number' && error.status >= 400 && error.status < 500) return error;
  const encoding = ctx.get('Content-Encoding');
  const why = (error.message || 'malformed body').split('\n')[0];
  return fieldError('body', encoding ? `could not be decoded as Content-Encoding ${encoding}: ${why}` : `could not be read: ${why}`);
}

/**
 * koa-body with the checks every parsed body gets: a body that cannot be read is a 4xx (never a 500),
 * and a body nested deeper than MAX_BODY_DEPTH is refused before any handler walks it.
 * `onError` (the batch upload's) may explain an error better; what it returns is thrown.
 */
export function bodyParser(options: Partial<Omit<KoaBodyMiddlewareOptions, 'onError'>>, explain?: (error: Error & { status?: unknown }) => Error | undefined) {
  const parse = koaBody({
    ...options,
    onError: (error, ctx) => {
      // The parser stopped before the end of the body (a limit passed, an error in the stream): the rest
      // of it is still on the connection, where the client's next request would be read after it.
      // The connection is closed after the answer instead (a reused one was reset, measured: ECONNRESET).
      if (!ctx.req.complete) ctx.set('Connection', 'close');
      throw explain?.(error) ?? unreadableBody(error, ctx as AppContext);
    },
  });
  return async function bodyParserMiddleware(ctx: AppContext, next: Next): Promise<void> {
    await parse(ctx, async () => {
      if (nestsDeeperThan((ctx.request as { body?: unknown }).body, MAX_BODY_DEPTH)) throw fieldError('body', `nests deeper than ${MAX_BODY_DEPTH} levels`);
      await next();
    });
  };
}
