import { once } from 'node:events';
import fs from 'node:fs';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import type Router from '@koa/router';
import { Validator } from '@seriousme/openapi-schema-validator';
import { expect } from 'chai';
import type Koa from 'koa';
import openapiTS, { astToString } from 'openapi-typescript';
import { JwtService } from '../../api/accounts/jwt.js';
import { buildApp } from '../../api/app.js';
import type { AppState } from '../../api/http/state.js';
import { ROUTES } from '../../api/route-table.js';
import { loadConfig } from '../../core/config/load-config.js';
import { createLogger } from '../../core/logger.js';

type Doc = { paths: Record<string, Record<string, any>>; servers: { url: string }[]; components: { schemas: Record<string, unknown> } };
const METHODS = ['get', 'post', 'put', 'patch', 'delete'];

/** The application as the server builds it; only openapi.json's handler runs, so the services are not needed. */
async function app(): Promise<{ app: Koa<AppState>; doc: Doc; dataDir: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-routes-'));
  const secret = 'route-table-test-secret-0123456789-0123456789';
  const config = loadConfig({ SHOTFARM_DATA_DIR: dataDir, LOG_LEVEL: 'silent', JWT_SECRET: secret, PUBLIC_URL: 'http://127.0.0.1:9' });
  const unused = {} as never;
  const built = buildApp({
    config,
    db: unused,
    log: createLogger('silent'),
    jwt: new JwtService(secret),
    rateLimiter: null,
    screenshots: unused,
    objects: unused,
    events: unused,
    registry: unused,
    metrics: { httpSeconds: { startTimer: () => () => undefined } } as never,
    crawls: unused,
    batches: unused,
    batchLinks: unused,
    imageLinks: unused,
    apps: unused,
    queue: unused,
    mailer: unused,
    billing: unused,
    monitors: unused,
    diffLinks: unused,
  });
  // The document as GET /api/v1/openapi.json answers it, through the whole middleware stack.
  const server = built.listen(0, '127.0.0.1');
  try {
    await once(server, 'listening');
    const res = await fetch(`http://127.0.0.1:${(server.address() as AddressInfo).port}/api/v1/openapi.json`);
    expect(res.status).to.equal(200);
    return { app: built, doc: (await res.json()) as Doc, dataDir };
  } finally {
    server.close();
  }
}

/** Every layer of every router the application mounts: what @koa/router really dispatches. */
function routerLayers(built: Koa<AppState>): { path: string; methods: string[]; stack: ((ctx: unknown, next: () => Promise<void>) => unknown)[] }[] {
  return (built.middleware as { router?: Router<AppState> }[]).flatMap((mw) => (mw.router?.stack ?? []) as never[]);
}

/** "METHOD /served/path" of every route layer (middleware layers have no methods; HEAD comes with GET). */
function routed(built: Koa<AppState>): string[] {
  return [...new Set(routerLayers(built).flatMap((l) => l.methods.filter((m) => m !== 'HEAD').map((m) => `${m} ${l.path}`)))].sort();
}

/** "METHOD /served/path" of every operation of the document (an operation outside /api/v1 says so with its own servers). */
function documented(doc: Doc): string[] {
  const api = new URL(doc.servers[0]!.url).pathname;
  return Object.entries(doc.paths)
    .flatMap(([p, item]) => METHODS.filter((m) => item[m]).map((m) => `${m.toUpperCase()} ${item.servers ? p : `${api}${p}`}`))
    .sort();
}

describe('route table: one descriptor per route, the router and openapi.json built from it', () => {
  let built: Awaited<ReturnType<typeof app>>;
  before(async () => {
    built = await app();
  });
  after(() => fs.rmSync(built.dataDir, { recursive: true, force: true }));

  it('every route the router dispatches is documented, and every documented operation is routed', () => {
    const routes = routed(built.app);
    // The walk itself is checked: it sees the routes of every router, or it proves nothing.
    expect(routes).to.include.members([
      'GET /api/v1/screenshot/create',
      'POST /api/v1/batch/create',
      'GET /api/v1/batch/info',
      'GET /api/v1/batch/download',
      'GET /api/v1/admin/nodes',
      'POST /api/v1/auth/login',
      'GET /healthz',
      'GET /metrics',
      'GET /api/v1/openapi.json',
    ]);
    expect(routes.length).to.be.above(50);
    const docOps = documented(built.doc);
    expect(
      routes.filter((r) => !docOps.includes(r)),
      'routed but not in openapi.json',
    ).to.deep.equal([]);
    expect(
      docOps.filter((r) => !routes.includes(r)),
      'in openapi.json but not routed',
    ).to.deep.equal([]);
  });

  it('the comparison notices a route added to a router beside the table', async () => {
    const extra = await app();
    try {
      const api = (extra.app.middleware as { router?: Router<AppState> }[]).map((m) => m.router).find((r) => r?.opts.prefix === '/api/v1' && r.stack.some((l) => l.path === '/api/v1/screenshot/list'));
      api!.get('/not-in-the-table/list', () => undefined);
      expect(routed(extra.app).filter((r) => !documented(extra.doc).includes(r))).to.deep.equal(['GET /api/v1/not-in-the-table/list']);
    } finally {
      fs.rmSync(extra.dataDir, { recursive: true, force: true });
    }
  });

  it('is a valid OpenAPI 3.1 document (@seriousme/openapi-schema-validator)', async () => {
    const result = await new Validator().validate(structuredClone(built.doc) as never);
    expect(result.errors ?? [], JSON.stringify(result.errors, null, 1)?.slice(0, 3000)).to.deep.equal([]);
    expect(result.valid).to.equal(true);
  });

  it('every operation has a unique operationId, a summary, a typed 200, error envelopes, and for POST a requestBody', () => {
    const ids = new Set<string>();
    for (const [p, item] of Object.entries(built.doc.paths) as [string, Record<string, any>][]) {
      for (const m of METHODS.filter((x) => item[x])) {
        const op = item[m];
        const name = `${m} ${p}`;
        expect(op.operationId, name).to.match(/^[a-z][A-Za-z]+$/);
        expect(ids.has(op.operationId), `${name}: operationId ${op.operationId} twice`).to.equal(false);
        ids.add(op.operationId);
        expect(op.summary, name).to.be.a('string').and.not.equal('');
        const ok = op.responses['200'];
        const content = Object.entries(ok.content ?? {}) as [string, { schema?: Record<string, any> }][];
        expect(content.length, `${name}: 200 has no content`).to.be.above(0);
        for (const [type, media] of content) expect(media.schema, `${name}: ${type} without a schema`).to.be.an('object');
        const json = ok.content['application/json'];
        // The API description and the MCP endpoint (JSON-RPC) answer JSON of their own protocol, not the envelope.
        if (json && p !== '/openapi.json' && p !== '/mcp' && !item.servers) {
          // The spec's success envelope, with the operation's data.
          expect(json.schema.required, name).to.deep.equal(['success', 'data']);
          expect(json.schema.properties.data.$ref, name).to.match(/^#\/components\/schemas\/\w+$/);
          expect(built.doc.components.schemas).to.have.property(json.schema.properties.data.$ref.split('/').pop());
        }
        expect(op.responses['500'].content['application/json'].schema.$ref, name).to.equal('#/components/schemas/Error');
        if (m === 'post') expect(op.requestBody?.content, `${name}: no requestBody`).to.be.an('object');
      }
    }
    expect(ids.size).to.equal(ROUTES.length);
  });

  it('passwords and tokens are documented in the request body only, never as query parameters', () => {
    for (const p of ['/auth/signup', '/auth/login', '/auth/reset-password', '/auth/verify-email', '/auth/forgot-password']) {
      const op = built.doc.paths[p]!.post;
      expect(
        op.parameters.map((x: { name: string }) => x.name),
        p,
      ).to.deep.equal([]);
      const schema = op.requestBody.content['application/json'].schema;
      expect(Object.keys(schema.properties), p).to.include.members(
        p === '/auth/verify-email' ? ['token'] : p === '/auth/forgot-password' ? ['email', 'captcha_token'] : p === '/auth/login' ? ['email', 'password'] : ['password', 'captcha_token'],
      );
    }
    expect(built.doc.paths['/auth/login']!.post.requestBody.content['application/json'].schema.required).to.deep.equal(['email', 'password']);
  });

  it("screenshot create documents every parameter of the create table (and batch create every option with the batch's own)", async () => {
    const { CREATE_PARAMS } = await import('../../api/options/create-params.js');
    const { BATCH_OWN_PARAMS } = await import('../../api/batches/batch-params.js');
    const names = built.doc.paths['/screenshot/create']!.get.parameters.map((x: { name: string }) => x.name);
    expect(names).to.include.members([...Object.keys(CREATE_PARAMS), 'steps', 'trackers', 'geo_longitute', 'lang']);
    const batch = built.doc.paths['/batch/create']!.post.requestBody.content;
    expect(Object.keys(batch)).to.deep.equal(['multipart/form-data', 'application/json']);
    expect(Object.keys(batch['multipart/form-data'].schema.properties)).to.include.members([...Object.keys(CREATE_PARAMS), ...Object.keys(BATCH_OWN_PARAMS), 'file']);
  });

  it('a client generated from it (openapi-typescript) types the 200 answer of every operation', async () => {
    const source = astToString(await openapiTS(structuredClone(built.doc) as never));
    // openapi-typescript writes `content?: never` for a response without content: the defect this replaces.
    const untyped = [...source.matchAll(/\n\s+(\w+): \{\n(?:[^\n]*\n){0,8}?\s+responses: \{\n\s+200: \{\n\s+headers: \{\n\s+\[name: string\]: unknown;\n\s+\};\n\s+content\?: never;/g)].map(
      (m) => m[1],
    );
    expect(untyped).to.deep.equal([]);
    const typed = source.match(/200: \{\n\s+headers: \{\n\s+\[name: string\]: unknown;\n\s+\};\n\s+content: \{/g) ?? [];
    expect(typed.length).to.equal(ROUTES.length);
    expect(source).to.include('getScreenshot: {').and.include('"application/json": {');
  });
});
