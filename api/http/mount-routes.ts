import Router from '@koa/router';
import type { Middleware, Next } from 'koa';
import { validationError, type FieldErrors } from '../../core/errors.js';
import { paramNames, readParams, type ParamTable } from '../options/read-params.js';
import { jsonBodyFields, jsonBodyParams } from './json-body.js';
import { checkBodyTypes, type BodyField } from './json-field-types.js';
import { queryOf } from './query.js';
import { requireAdmin, type AppContext, type AppState } from './state.js';
import { bodyFieldsOf } from './param-schemas.js';
import { API_PREFIX, servedPath, type ApiRoute, type RouteDeps } from './route.js';

/** The routers the application mounts, in the order it mounts them (app.ts places its middleware between). */
export interface RouteRouters {
  /** `none`: health, metrics, openapi.json */
  open: Router<AppState>;
  /** signed links (a request carrying `token`), before authentication; without a token they pass on */
  signedLinks: Router<AppState>;
  /** `anonymous` under /api/v1 */
  anonymous: Router<AppState>;
  /** `account` and `admin` under /api/v1 */
  api: Router<AppState>;
}

/** Middleware of the routers that take such requests, given by the application (authentication, limits, body parsing). */
export interface RouterMiddleware {
  /** before every `anonymous` route: the per-address rate limit and the JSON body */
  anonymous: Middleware<AppState>[];
  /** before every `account` and `admin` route: authentication, audit, rate limit */
  api: Middleware<AppState>[];
  /** the JSON body of `account` and `admin` routes (an `upload` route parses its own) */
  jsonBody: Middleware<AppState>;
  /** after a signed render link is verified (`signedAccess` routes): what `api` runs after authentication (audit, rate limit) */
  signedAccess: Middleware<AppState>[];
}

/** A request that puts a body-only field in its URL is refused, naming each such field. */
function refuseInUrl(ctx: AppContext, table: ParamTable): void {
  const query = queryOf(ctx);
  const fields: FieldErrors = {};
  for (const name of paramNames(table)) {
    if (query[name] !== undefined) fields[name] = ['must be sent in the JSON request body, never in the URL (URLs are kept in logs and histories)'];
  }
  if (Object.keys(fields).length > 0) throw validationError(fields);
}

/** The typed values of a route's tables, or the 400 naming everything wrong. */
function readInput(ctx: AppContext, route: ApiRoute, deps: RouteDeps): Record<string, unknown> {
  const tables = { ...route.query, ...route.body };
  if (route.validatedBy === 'handler' || Object.keys(tables).length === 0) return {};
  const required = typeof route.required === 'function' ? route.required(deps) : (route.required ?? []);
  if (route.method === 'get') return readParams(tables, queryOf(ctx), required);
  if (route.bodyOnly) {
    refuseInUrl(ctx, route.body ?? {});
    return readParams(tables, jsonBodyFields(ctx), required);
  }
  // The original service's clients send POST fields in the query too: the body wins on conflict.
  return readParams(tables, jsonBodyParams(ctx), required);
}

/**
 * The route's middleware: the admin check (before anything is read), the JSON types of its body (for every
 * route, its handler's own readers included), its input, its handler, the envelope.
 */
function handle(route: ApiRoute, deps: RouteDeps): Middleware<AppState> {
  const bodyFields: ReadonlyMap<string, BodyField> = route.method === 'post' ? bodyFieldsOf(route) : new Map();
  return async (ctx) => {
    if (route.credentials === 'admin') requireAdmin(ctx);
    checkBodyTypes(ctx, bodyFields);
    const result = await route.handler(ctx, deps, readInput(ctx, route, deps));
    if ('data' in route.response) ctx.body = { success: true, data: result };
  };
}

/** The signed-link half of a route: with `token` in the query it answers; without, the request goes on to authentication. */
function handleSignedLink(answer: NonNullable<ApiRoute['signedLink']>, deps: RouteDeps): Middleware<AppState> {
  return async (ctx: AppContext, next: Next) => {
    if (new URLSearchParams(ctx.querystring).get('token') === null) return next();
    await answer(ctx, deps);
    return undefined;
  };
}

/** Runs middleware in order, as a router would, ending at the last one. */
function runChain(ctx: AppContext, chain: readonly Middleware<AppState>[]): Promise<unknown> {
  const at = (i: number): Promise<unknown> => (i < chain.length ? Promise.resolve((chain[i] as Middleware<AppState>)(ctx, () => at(i + 1))) : Promise.resolve());
  return at(0);
}

/**
 * The signed-render-link half of a `signedAccess` route: a query naming `access` or `signature` is verified
 * (403, 410, 401 before anything is read or made), runs as the link's key with the link's parameters taken out,
 * and is answered here; any other request goes on to authentication.
 */
function handleSignedAccess(route: ApiRoute, deps: RouteDeps, after: readonly Middleware<AppState>[]): Middleware<AppState> {
  return async (ctx: AppContext, next: Next) => {
    if (!deps.signedLinks.isSigned(ctx.querystring)) return next();
    const link = await deps.signedLinks.verify(ctx.querystring);
    ctx.state.caller = { ...link.caller, requestId: ctx.state.requestId };
    ctx.state.signedLink = true;
    ctx.querystring = link.query;
    await runChain(ctx, [...after, handle(route, deps)]);
    return undefined;
  };
}

/** Builds the routers of the route table. */
export function buildRouters(routes: readonly ApiRoute[], deps: RouteDeps, mw: RouterMiddleware): RouteRouters {
  const open = new Router<AppState>();
  const signedLinks = new Router<AppState>();
  const anonymous = new Router<AppState>({ prefix: API_PREFIX });
  anonymous.use(...mw.anonymous);
  const api = new Router<AppState>({ prefix: API_PREFIX });
  api.use(...mw.api);
  // An upload route (POST /batch/create) parses its own body: multipart, with the batch file's larger limit.
  const uploads = new Set(routes.filter((r) => r.upload).map(servedPath));
  api.use((ctx, next) => (uploads.has(ctx.path) ? next() : mw.jsonBody(ctx, next)));

  for (const route of routes) {
    if (route.outside && route.credentials !== 'none') throw new Error(`${route.operationId}: a route outside ${API_PREFIX} takes no credential (nothing authenticates there)`);
    const own = route.upload ? [route.upload.parser(deps)] : [];
    if (route.signedLink) signedLinks[route.method](servedPath(route), handleSignedLink(route.signedLink, deps));
    if (route.signedAccess) {
      if (route.method !== 'get' || route.credentials !== 'account') throw new Error(`${route.operationId}: a signed render link is a GET of an account route`);
      signedLinks.get(servedPath(route), handleSignedAccess(route, deps, mw.signedAccess));
    }
    switch (route.credentials) {
      case 'none':
        open[route.method](servedPath(route), handle(route, deps));
        break;
      case 'anonymous':
        anonymous[route.method](route.path, handle(route, deps));
        break;
      default:
        api[route.method](route.path, ...own, handle(route, deps));
    }
  }
  return { open, signedLinks, anonymous, api };
}
