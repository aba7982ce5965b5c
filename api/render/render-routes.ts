import { CREATE_PARAMS } from '../options/create-params.js';
import { bodyWithinLimits, queryWithinLimits, sourceBodyParser } from '../http/source-limits.js';
import { defineRoute, type ApiRoute } from '../http/route.js';
import { Screenshot } from '../screenshots/screenshot-shapes.js';
import { RENDER_PARAMS } from './render-params.js';
import { render } from './render-service.js';

const tag = 'Render';

/** Every create option (one url, one country) and render's own: its `format` and `quality` stand for create's (render's is wider). */
const PARAMS = { ...CREATE_PARAMS, ...RENDER_PARAMS };

const answer = {
  envelope: Screenshot,
  content: ['image/png', 'image/jpeg', 'image/webp', 'image/avif', 'application/pdf', 'text/html', 'text/markdown', 'application/json'],
  description: 'The bytes of `format`, with ETag, X-Screenshot-Id, X-Render-Ms (304 when If-None-Match matches; 422 CAPTURE_FAILED; 504 RENDER_TIMEOUT)',
} as const;
const description =
  'One request, the bytes back: a record made as create makes it (cost, cache, apps, warnings; `info` afterwards), waited for at most `timeout` seconds. ' +
  'A cache hit answers the stored bytes at cost 0, without a browser. Exactly one of `url`, `source_html` and `source_markdown` (a long source: POST).';

/** GET and POST /screenshot/render (beyond-v1.md part 1): the same operation, its parameters in the query or a JSON or form body. */
export const RENDER_ROUTES: ApiRoute[] = [
  defineRoute({
    method: 'get',
    path: '/screenshot/render',
    operationId: 'renderScreenshot',
    tag,
    credentials: 'account',
    // Also a signed link (access, expires, signature) for <img src>, e-mails and CDNs: api/auth/signed-links.ts.
    signedAccess: true,
    summary: 'Render one url and answer its bytes',
    description,
    query: PARAMS,
    // Create's service reads its options itself (as GET /screenshot/create), render's are read first.
    validatedBy: 'handler',
    response: answer,
    handler: (ctx, deps) => render(ctx, deps, queryWithinLimits(ctx, deps.config.sources)),
  }),
  defineRoute({
    method: 'post',
    path: '/screenshot/render',
    operationId: 'renderScreenshotPost',
    tag,
    credentials: 'account',
    summary: 'Render one url and answer its bytes (parameters in a JSON or form body, or the query)',
    description,
    body: PARAMS,
    // A source up to SHOTFARM_SOURCE_BODY_MAX_BYTES, as POST /screenshot/create takes it.
    upload: { parser: (deps) => sourceBodyParser(deps.config.sources), mediaTypes: ['application/json', 'application/x-www-form-urlencoded'] },
    validatedBy: 'handler',
    response: answer,
    handler: (ctx, deps) => render(ctx, deps, bodyWithinLimits(ctx, deps.config.sources)),
  }),
];
