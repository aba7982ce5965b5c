import type { Middleware } from 'koa';
import type { z } from 'zod';
import type { ParamsOf, ParamTable } from '../options/read-params.js';
import type { RouteDeps } from '../app-deps.js';
import type { AppContext, AppState } from './state.js';

/**
 * One HTTP route, described once: the router (api/http/mount-routes.ts) and `openapi.json`
 * (api/http/openapi-document.ts) are both built from these, so a route cannot be served without
 * being documented, nor documented without being served. docs/architecture.md describes the format.
 */

/**
 * Who may call a route:
 * - `none`: no credential and no rate limit (health, metrics, the API description);
 * - `anonymous`: how a client gets a credential (signup, login, the email flows): none is taken, and
 *   requests are rate-limited per client address instead;
 * - `account`: one of the spec's three credentials (`key`, `X-API-KEY`, `Authorization: Bearer`);
 * - `admin`: such a credential whose user has the admin role (403 to everyone else, before anything is read).
 */
export type Credentials = 'none' | 'anonymous' | 'account' | 'admin';

/**
 * What a 200 answers:
 * - `data`: the spec's success envelope {success: true, data}; the handler returns `data`;
 * - `json`: a JSON body of its own shape (health, readiness); the handler sets ctx.body;
 * - `content`: a body of these media types (images, PDF, ZIP, text); the handler sets ctx.body. `envelope`:
 *   its application/json answer is the success envelope {success: true, data} of this shape (render's json).
 */
export type RouteResponse = { data: z.ZodType; description: string } | { json: z.ZodType; description: string } | { content: readonly string[]; description: string; envelope?: z.ZodType };

export type { RouteDeps };

/** A JSON Schema (draft 2020-12) fragment, for request fields no parameter table describes (nested settings, steps). */
export type JsonSchema = Record<string, unknown>;

export interface RouteSpec<Q extends ParamTable, B extends ParamTable> {
  method: 'get' | 'post';
  /** the path under /api/v1 (as the spec writes it), or from the origin when `outside` is set */
  path: string;
  /** served outside /api/v1 (/healthz, /metrics) */
  outside?: true;
  /** unique, camelCase: the name a generated client gives the call */
  operationId: string;
  summary: string;
  description?: string;
  /** the reference's section (Screenshots, Batches, ...) */
  tag: string;
  credentials: Credentials;
  /** query parameters: they validate the request and are documented as `in: query` */
  query?: Q;
  /**
   * request body fields (POST): documented as the JSON requestBody. They are also read from the query,
   * as the original service's clients send them there, unless `bodyOnly`.
   */
  body?: B;
  /** fields a 400 asks for when missing (a function when it depends on configuration, like captcha_token) */
  required?: readonly string[] | ((deps: RouteDeps) => readonly string[]);
  /**
   * Passwords and tokens: the body's fields are read from the JSON body only, and a request that puts
   * one in the URL (which proxies, logs and browser history keep) gets a 400 naming it.
   */
  bodyOnly?: true;
  /** request fields beyond the tables (steps, trackers, an app's nested settings), documented as given */
  extraQuery?: Record<string, JsonSchema>;
  extraBody?: Record<string, JsonSchema>;
  /** the body's media types when not only JSON (batch create's multipart upload), and its own parser */
  upload?: { parser: (deps: RouteDeps) => Middleware<AppState>; mediaTypes: readonly string[] };
  /**
   * `handler`: the tables document the input and the handler's service validates it itself (screenshot
   * and crawl create: their services read every option); otherwise the router reads the tables first
   * and hands the handler the typed values.
   */
  validatedBy?: 'handler';
  response: RouteResponse;
  /**
   * A signed link to the same resource (a batch's zip_url, a webhook's image_url): a request carrying
   * `token` in its query is answered by this, without a credential, before authentication runs.
   */
  signedLink?: (ctx: AppContext, deps: RouteDeps) => Promise<void>;
  /**
   * A GET that also takes a signed render link (beyond-v1.md part 2): a request whose query names `access` or
   * `signature` is verified by `deps.signedLinks` (api/auth/signed-links.ts) before authentication and then runs
   * as the link's key (its rate limit, its account), with the link's parameters taken out of the query;
   * `ctx.state.signedLink` tells the handler (its answer is `Cache-Control: public`).
   */
  signedAccess?: true;
  /** answers the request; for `data` responses it returns the envelope's `data` */
  handler: (ctx: AppContext, deps: RouteDeps, input: ParamsOf<Q & B>) => unknown;
}

/** A route with its parameter types erased, as the route table holds it. */
export type ApiRoute = RouteSpec<ParamTable, ParamTable>;

/** Declares a route: typed against its own tables here, erased for the route table. */
export function defineRoute<Q extends ParamTable = Record<never, never>, B extends ParamTable = Record<never, never>>(spec: RouteSpec<Q, B>): ApiRoute {
  return spec as unknown as ApiRoute;
}

/** The path a route is served at. */
export const API_PREFIX = '/api/v1';
export const servedPath = (route: ApiRoute): string => (route.outside ? route.path : `${API_PREFIX}${route.path}`);
