import type { Next } from 'koa';
import type { Logger } from '../../core/logger.js';
import { isDatabaseUnavailable } from '../db/connect.js';
import { ApiError, serviceUnavailable } from '../../core/errors.js';
import type { AppContext } from './state.js';

/** The generic messages of errors whose internals must not reach the client. */
const GENERIC: Record<number, { code: string; error: string }> = {
  500: { code: 'INTERNAL_ERROR', error: 'Internal server error' },
  503: { code: 'SERVICE_UNAVAILABLE', error: 'Service temporarily unavailable' },
};

/**
 * The one place that turns errors into the spec's envelopes:
 * {success: false, error, code, details: {request_id}} plus `fields` (400), `retry_after` (429, with a
 * Retry-After header) and `status: "error"` (every 403, as the spec's 403 body). Unknown errors become a generic
 * 500; their internals go to the log with the request id, never to the client.
 */
export function errorEnvelope(log: Logger) {
  return async function errorEnvelopeMiddleware(ctx: AppContext, next: Next): Promise<void> {
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new ApiError(404, 'NOT_FOUND', 'Not found');
    } catch (err) {
      const apiError = toApiError(err);
      if (apiError.status >= 500) log.error({ err, requestId: ctx.state.requestId, path: ctx.path }, 'request failed');
      const generic = GENERIC[apiError.status];
      const exposed = apiError.expose || !generic;
      const body: Record<string, unknown> = {
        success: false,
        error: exposed ? apiError.message : generic.error,
        code: exposed ? apiError.code : generic.code,
        details: { ...(exposed ? apiError.extra.details : {}), request_id: ctx.state.requestId },
      };
      if (apiError.extra.fields) body.fields = apiError.extra.fields;
      // The spec's 403 body is {error, status: "error", code}: every 403 (balance, admin-only) carries it.
      if (apiError.status === 403) body.status = 'error';
      if (apiError.extra.retryAfter !== undefined) {
        body.retry_after = apiError.extra.retryAfter;
        ctx.set('Retry-After', String(apiError.extra.retryAfter));
      }
      ctx.status = apiError.status;
      ctx.body = body;
    }
  };
}

/** Errors from Koa, koa-body or the router carry an HTTP status; map them to the envelope's codes. */
function toApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (isDatabaseUnavailable(err)) return serviceUnavailable('The database is unavailable; try again shortly');
  const status = typeof (err as { status?: unknown })?.status === 'number' ? (err as { status: number }).status : 500;
  const message = (err as { message?: string })?.message ?? '';
  if (status === 413) return new ApiError(413, 'PAYLOAD_TOO_LARGE', 'Request body too large');
  if (status === 415) return new ApiError(415, 'UNSUPPORTED_MEDIA_TYPE', 'Unsupported content type');
  if (status === 405) return new ApiError(405, 'METHOD_NOT_ALLOWED', message || 'Method not allowed');
  // The router answers 501 to a method no route of it implements (TRACE, PROPFIND…): a server's "not
  // implemented", but it is the request that is wrong, and the client's to change: 405, as for a known one.
  if (status === 501) return new ApiError(405, 'METHOD_NOT_ALLOWED', 'Method not allowed');
  if (status === 404) return new ApiError(404, 'NOT_FOUND', 'Not found');
  if (status === 400) return new ApiError(400, 'VALIDATION_ERROR', 'Invalid request body', { fields: { body: [message || 'could not be parsed'] } });
  if (status >= 400 && status < 500) return new ApiError(status, 'BAD_REQUEST', message || 'Bad request');
  return new ApiError(500, 'INTERNAL_ERROR', 'Internal server error', {}, false);
}
