import Koa from 'koa';
import { authenticate } from './auth/authenticate.js';
import { bodyParser } from './http/body-parser.js';
import { caseSensitiveRoutes } from './http/case-sensitive-routes.js';
import { errorEnvelope } from './http/error-envelope.js';
import { rateLimit } from './http/rate-limit.js';
import { requestId } from './http/request-id.js';
import { accessLog } from './http/access-log.js';
import { clientAddress } from './http/client-address.js';
import { addressLimitKey } from './http/forwarded-client.js';
import type { AppState } from './http/state.js';
import type { ApiRoute } from './http/route.js';
import { requestMetrics } from './http/request-metrics.js';
import { buildAuthService } from './auth/build-auth.js';
import { impersonationAudit } from './auth/impersonation-audit.js';
import { serveDashboard } from './dashboard/serve-dashboard.js';
import { serveApiReference } from './dashboard/serve-api-reference.js';
import { buildRouters } from './http/mount-routes.js';
import { buildOpenApi } from './http/openapi-document.js';
import { ROUTES, SHAPES } from './route-table.js';
import type { AppDeps, RouteDeps } from './app-deps.js';
import { SigningSecrets } from './accounts/signing-secrets.js';
import { isSignedLinkQuery, verifySignedLink } from './auth/signed-links.js';
import { SecretBox } from './apps/secret-box.js';
import { resolveSecretsKey } from './apps/secrets-key.js';

export type { AppDeps };

/** JSON bodies above 1 MiB are refused (413): no operation here needs more. */
const JSON_BODY_LIMIT = '1mb';

/** The control plane's HTTP application: public health/OpenAPI routes, then authenticated /api/v1 (api/route-table.ts). */
export function buildApp(deps: AppDeps, routes: readonly ApiRoute[] = ROUTES): Koa<AppState> {
  const app = new Koa<AppState>();
  app.use(clientAddress(deps.config.trustedProxies));
  app.use(requestId);
  app.use(accessLog(deps.log));
  app.use(requestMetrics(deps.metrics));
  app.use(errorEnvelope(deps.log));

  const signingSecrets = new SigningSecrets(deps.db, new SecretBox(resolveSecretsKey(deps.config)), deps.config.auth.signingSecretGraceSeconds);
  const routeDeps: RouteDeps = {
    ...deps,
    auth: buildAuthService(deps),
    openApiDocument: buildOpenApi(routes, deps.config.publicUrl, SHAPES),
    signingSecrets,
    signedLinks: { isSigned: isSignedLinkQuery, verify: (raw) => verifySignedLink(deps.db, signingSecrets, raw) },
  };
  const jsonBody = bodyParser({ json: true, multipart: false, urlencoded: true, jsonLimit: JSON_BODY_LIMIT, formLimit: JSON_BODY_LIMIT, textLimit: JSON_BODY_LIMIT });
  const routers = buildRouters(routes, routeDeps, {
    // Signup, login and the email/password flows are how a client gets a credential: they take none, and
    // are rate-limited per client address instead.
    anonymous: [rateLimit(deps.rateLimiter, (ctx) => `address:${addressLimitKey(ctx.ip)}`), jsonBody],
    api: [authenticate(deps.db, deps.jwt, deps.apiKeys), impersonationAudit(deps.log), rateLimit(deps.rateLimiter)],
    jsonBody,
    // A signed render link runs as its key: the key's rate limit, as if the key itself had been sent.
    signedAccess: [impersonationAudit(deps.log), rateLimit(deps.rateLimiter)],
  });

  // Health, metrics and openapi.json.
  app.use(routers.open.routes());
  // The web dashboard: only GET / and /assets/*, and the API reference: only GET /docs and its script;
  // neither shadows the paths above or /api/v1.
  app.use(serveDashboard());
  app.use(serveApiReference());
  // A signed zip_url, a webhook's signed image_url or a monitor.changed event's diff_url answers without a credential; without a token the
  // request goes on to authentication. A signed render link (access + signature) runs as its key.
  app.use(routers.signedLinks.routes());
  app.use(routers.anonymous.routes());
  app.use(routers.api.routes());
  app.use(routers.api.allowedMethods({ throw: true }));
  caseSensitiveRoutes(app);
  return app;
}
