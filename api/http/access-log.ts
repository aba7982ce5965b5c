import type { IncomingMessage } from 'node:http';
import type { Middleware } from 'koa';
import { pinoHttp } from 'pino-http';
import type { Logger } from '../../core/logger.js';
import type { AppState } from './state.js';

/**
 * Query parameters whose values are credentials (an API key, a signed link's token) or may hold the
 * target site's secrets (cookies, headers, a POST body): an access log keeps their names, never their values.
 */
const SECRET_PARAMS = new Set(['key', 'token', 'password', 'cookie', 'header', 'post_data']);

/** Probes and scrapes come every few seconds: logged at debug, so the info log holds the traffic. */
const PROBE_PATHS = new Set(['/healthz', '/readyz', '/metrics']);

/** The request's path and query with the values of SECRET_PARAMS replaced. */
export function loggableUrl(url: string): string {
  const at = url.indexOf('?');
  if (at < 0) return url;
  const params = new URLSearchParams(url.slice(at + 1));
  for (const name of new Set(params.keys())) {
    // Bracket forms (`header[0]`) count as their base name.
    if (SECRET_PARAMS.has(name.replace(/\[.*$/, '').toLowerCase())) params.set(name, '[redacted]');
  }
  return `${url.slice(0, at)}?${params.toString()}`;
}

/** What the middleware knows that pino-http cannot read from the raw request: the client address behind trusted proxies. */
const clients = new WeakMap<IncomingMessage, string>();

const pathOf = (req: IncomingMessage): string => (req.url ?? '').split('?')[0] ?? '';

/**
 * One access log line per request (pino-http over the process logger), written when the response is
 * sent or the connection closes: method, URL (secrets redacted), status, time, client address and
 * `request_id`, the id that also names the records the request creates and the agent's lines about
 * their jobs. Runs after requestId() and outside the error envelope, so the status is the one sent.
 * Response headers are not logged (a login answer sets the session cookie).
 */
export function accessLog(log: Logger): Middleware<AppState> {
  const line = (req: IncomingMessage, status: number, responseTime: unknown): Record<string, unknown> => ({
    method: req.method,
    url: loggableUrl(req.url ?? ''),
    status,
    ms: responseTime,
    client: clients.get(req) ?? req.socket.remoteAddress,
  });
  const httpLog = pinoHttp({
    logger: log,
    // Only the request id is bound; the line's fields are built below (never the raw request or response).
    quietReqLogger: true,
    quietResLogger: true,
    customAttributeKeys: { reqId: 'request_id' },
    customLogLevel: (req, res, err) => (err || res.statusCode >= 500 ? 'error' : PROBE_PATHS.has(pathOf(req)) ? 'debug' : 'info'),
    customSuccessMessage: () => 'request completed',
    customErrorMessage: () => 'request failed',
    customSuccessObject: (req, res, val: Record<string, unknown>) => line(req, res.statusCode, val.responseTime),
    customErrorObject: (req, res, err, val: Record<string, unknown>) => ({ ...line(req, res.statusCode, val.responseTime), error: err.message }),
  });
  return async (ctx, next) => {
    ctx.req.id = ctx.state.requestId;
    clients.set(ctx.req, ctx.ip);
    httpLog(ctx.req, ctx.res);
    await next();
  };
}
