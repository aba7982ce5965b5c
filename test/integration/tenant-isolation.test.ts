import { expect } from 'chai';
import type Router from '@koa/router';
import { buildApp } from '../../api/app.js';
import type { AppState } from '../../api/http/state.js';
import { createLogger } from '../../core/logger.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';

type Answer = { status: number; body: any; headers: Headers };
type Fixture = 'screenshot' | 'source' | 'batch' | 'crawl' | 'apiKey' | 'app' | 'monitor';

/**
 * Every route that takes a record id, and which of the owner's records it is called with. A route
 * missing here fails the test below (its list comes from the routers themselves), so a new route
 * cannot skip the check. `variants` are extra query strings that reach other branches of the route.
 */
const ID_ROUTES: Record<string, { method: 'GET' | 'POST'; fixture: Fixture; variants?: string[]; mutates?: boolean }> = {
  '/api/v1/screenshot/info': { method: 'GET', fixture: 'screenshot', variants: ['', '&wait=1'] },
  '/api/v1/screenshot/thumbnail': { method: 'GET', fixture: 'screenshot', variants: ['', '&width=10&format=jpeg', '&shot=1&filename=x.png'] },
  '/api/v1/screenshot/html': { method: 'GET', fixture: 'screenshot' },
  '/api/v1/screenshot/markdown': { method: 'GET', fixture: 'screenshot' },
  '/api/v1/screenshot/pdf': { method: 'GET', fixture: 'screenshot' },
  '/api/v1/screenshot/source': { method: 'GET', fixture: 'source' },
  '/api/v1/screenshot/video': { method: 'GET', fixture: 'screenshot' },
  '/api/v1/screenshot/delete': { method: 'GET', fixture: 'screenshot', variants: ['', '&data=image', '&data=url', '&data=metadata', '&data=all'], mutates: true },
  '/api/v1/batch/info': { method: 'GET', fixture: 'batch' },
  '/api/v1/batch/cancel': { method: 'POST', fixture: 'batch', mutates: true },
  '/api/v1/batch/retry': { method: 'POST', fixture: 'batch', mutates: true },
  '/api/v1/batch/download': { method: 'GET', fixture: 'batch' },
  '/api/v1/crawl/info': { method: 'GET', fixture: 'crawl' },
  '/api/v1/crawl/cancel': { method: 'POST', fixture: 'crawl', mutates: true },
  '/api/v1/key/delete': { method: 'POST', fixture: 'apiKey', mutates: true },
  '/api/v1/key/rotate-signing-secret': { method: 'POST', fixture: 'apiKey', mutates: true },
  // Signs with the key's secret (changes nothing), but only by POST: checked with the mutating routes.
  '/api/v1/key/sign-link': { method: 'POST', fixture: 'apiKey', variants: ['&query=url%3Dhttps%253A%252F%252Fprivate.test'], mutates: true },
  '/api/v1/app/info': { method: 'GET', fixture: 'app' },
  '/api/v1/app/update': { method: 'POST', fixture: 'app', mutates: true },
  '/api/v1/app/delete': { method: 'POST', fixture: 'app', mutates: true },
  '/api/v1/monitor/info': { method: 'GET', fixture: 'monitor' },
  '/api/v1/monitor/runs': { method: 'GET', fixture: 'monitor' },
  '/api/v1/monitor/diff': { method: 'GET', fixture: 'screenshot' },
  '/api/v1/monitor/update': { method: 'POST', fixture: 'monitor', mutates: true },
  '/api/v1/monitor/pause': { method: 'POST', fixture: 'monitor', mutates: true },
  '/api/v1/monitor/resume': { method: 'POST', fixture: 'monitor', mutates: true },
  '/api/v1/monitor/delete': { method: 'POST', fixture: 'monitor', mutates: true },
  '/api/v1/monitor/run': { method: 'POST', fixture: 'monitor', mutates: true },
};

/** The (method, path) of every route the application registers, read from its Koa routers. */
function registeredRoutes(api: TestApi): { method: string; path: string }[] {
  // The handlers of this instance never run: the services are only needed by handlers, the routers
  // themselves are built from the same code the running server used.
  const unused = {} as never;
  const app = buildApp({
    config: api.config,
    db: api.database.db,
    log: createLogger('silent'),
    jwt: api.jwt,
    rateLimiter: null,
    screenshots: unused,
    objects: unused,
    events: unused,
    registry: unused,
    queue: unused,
    metrics: unused,
    crawls: unused,
    batches: unused,
    batchLinks: unused,
    imageLinks: unused,
    apps: unused,
    mailer: unused,
    monitors: unused,
    diffLinks: unused,
    billing: api.plane.billing,
  });
  const out = new Map<string, { method: string; path: string }>();
  for (const mw of app.middleware as { router?: Router<AppState> }[]) {
    for (const layer of mw.router?.stack ?? []) {
      for (const method of layer.methods) {
        if (method === 'HEAD') continue; // added by the router to every GET
        out.set(`${method} ${layer.path}`, { method, path: String(layer.path) });
      }
    }
  }
  return [...out.values()];
}

describe("tenant isolation: every id-taking route, with another account's credential", function () {
  this.timeout(120_000);
  let api: TestApi;
  let owner: TestAccount;
  let intruder: TestAccount;
  let intruderToken: string;
  const ids: Record<Fixture, number> = { screenshot: 0, source: 0, batch: 0, crawl: 0, apiKey: 0, app: 0, monitor: 0 };

  const json = (body: unknown): RequestInit => ({ method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });

  /** All of the owner's data that any of these routes could change, files included. */
  async function ownerState(): Promise<unknown> {
    const db = api.database.db;
    const by = { company_id: owner.companyId };
    const files = await db('screenshot_files').where(by).orderBy('id');
    return {
      company: await db('companies').where({ id: owner.companyId }).first(),
      screenshots: await db('screenshots').where(by).orderBy('id'),
      files,
      stored: await Promise.all(files.map(async (f) => (await api.parts.objects.stat(String(f.storage_key)))?.size ?? null)),
      batches: await db('batches').where(by).orderBy('id'),
      crawls: await db('crawls').where(by).orderBy('id'),
      crawlUrls: await db('crawl_urls').whereIn('crawl_id', db('crawls').where(by).select('id')).orderBy('id'),
      ledger: await db('credit_ledger').where(by).orderBy('id'),
      // last_used_at moves with the owner's own requests; whether a key still works is what matters here.
      apiKeys: await db('api_keys').where(by).orderBy('id').select('id', 'name', 'key_hash', 'revoked_at'),
      apps: await db('app_configs').where(by).orderBy('id'),
      monitors: await db('monitors').where(by).orderBy('id'),
      monitorRuns: await db('monitor_runs').where(by).orderBy('id'),
    };
  }

  async function put(id: number, kind: string, shot: number | null, name: string, contentType: string, data: Buffer): Promise<void> {
    const key = `screenshots/${id}/${name}`;
    await api.parts.objects.put(key, data, { contentType, size: data.length });
    await api.database.db('screenshot_files').insert({ company_id: owner.companyId, screenshot_id: id, kind, shot, storage_key: key, content_type: contentType, size_bytes: data.length });
  }

  before(async () => {
    api = await startTestApi('pglite');
    owner = await api.account(10_000);
    intruder = await api.account(10_000);
    intruderToken = await api.userToken(intruder.companyId);

    // A finished screenshot with every kind of output, so the owner gets 200 from every route and the
    // intruder's 404 can only come from the account check, not from "not ready".
    const created = await call(api.url, '/screenshot/create?url=private.test/secret&html=1&markdown=1&pdf=1&video=1', { key: owner.key });
    ids.screenshot = Number(created.body.data[0].id);
    const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000' + '1f15c4890000000d49444154789c636060f80f00010401005f5ba1e50000000049454e44ae426082', 'hex');
    await put(ids.screenshot, 'image', 1, 'shot-1.png', 'image/png', png);
    await put(ids.screenshot, 'html', null, 'page.html', 'text/html', Buffer.from('<p>secret</p>'));
    await put(ids.screenshot, 'markdown', null, 'page.md', 'text/markdown; charset=utf-8', Buffer.from('# secret'));
    await put(ids.screenshot, 'pdf', null, 'page.pdf', 'application/pdf', Buffer.from('%PDF-1.4 secret'));
    await put(ids.screenshot, 'video', null, 'video.mp4', 'video/mp4', Buffer.from('secret video'));
    await put(ids.screenshot, 'diff', 1, 'diff.png', 'image/png', png);
    await api.database.db('screenshots').where({ id: ids.screenshot }).update({ status: 'finished', finished_at: api.database.db.fn.now() });

    const source = await call(api.url, `/screenshot/create?source_html=${encodeURIComponent('<p>secret</p>')}`, { key: owner.key });
    expect(source.status, JSON.stringify(source.body)).to.equal(200);
    ids.source = Number(source.body.data[0].id);

    const batch = await call(api.url, '/batch/create', { ...json({ urls: ['private.test/a', 'private.test/b'], name: 'mine' }), key: owner.key });
    expect(batch.status, JSON.stringify(batch.body)).to.equal(200);
    ids.batch = Number(batch.body.data[0].id);
    const crawl = await call(api.url, '/crawl/create', { ...json({ url: 'https://private.test/', domain: 'private.test', max_urls: 5 }), key: owner.key });
    expect(crawl.status, JSON.stringify(crawl.body)).to.equal(200);
    ids.crawl = Number(crawl.body.data.id);
    const apiKey = await call(api.url, '/key/create', { ...json({ name: "owner's second key" }), key: owner.key });
    expect(apiKey.status, JSON.stringify(apiKey.body)).to.equal(200);
    ids.apiKey = Number(apiKey.body.data.id);
    const app = await call(api.url, '/app/create', {
      ...json({ app_id: 'owner-hook', type: 'webhook', settings: { url: 'https://hooks.private.test/in', secret: `whsec_${Buffer.alloc(32, 1).toString('base64')}` } }),
      key: owner.key,
    });
    expect(app.status, JSON.stringify(app.body)).to.equal(200);
    ids.app = Number(app.body.data.id);
    // Yearly: the schedule does not run it (and change the owner's records) while the test looks.
    const monitor = await call(api.url, '/monitor/create', { ...json({ url: 'https://private.test/watched', cron: '0 0 1 1 *' }), key: owner.key });
    expect(monitor.status, JSON.stringify(monitor.body)).to.equal(200);
    ids.monitor = Number(monitor.body.data.id);
  });
  after(async () => api?.stop());

  it("finds every id-taking route among the routers' routes, and covers each", async () => {
    const routes = registeredRoutes(api).filter((r) => r.path.startsWith('/api/v1/'));
    // The walk itself is checked: it must see the routes we know of, or it proves nothing.
    expect(routes.map((r) => `${r.method} ${r.path}`)).to.include.members(['GET /api/v1/screenshot/create', 'POST /api/v1/batch/create', 'GET /api/v1/crawl/list', 'POST /api/v1/crawl/cancel']);
    const takesId: string[] = [];
    for (const r of routes) {
      // A route that takes an id says so when none is given: 400 with fields.id "is required".
      const res = await call(api.url, r.path.replace('/api/v1', ''), r.method === 'POST' ? { ...json({}), key: intruder.key } : { key: intruder.key });
      expect(res.status, `${r.method} ${r.path}`).to.be.below(500);
      if (res.status === 400 && (res.body.fields?.id ?? []).includes('is required')) takesId.push(`${r.method} ${r.path}`);
    }
    const covered = Object.entries(ID_ROUTES).map(([path, r]) => `${r.method} ${path}`);
    expect(takesId.sort(), 'id-taking routes not in ID_ROUTES (add them), or ID_ROUTES entries that take no id').to.deep.equal(covered.sort());
  });

  it("answers 404 NOT_FOUND with the envelope to every credential of another account, and changes nothing of the owner's", async () => {
    // The owner really can read everything first: the 404s below are not "not ready" or "not requested".
    for (const [path, r] of Object.entries(ID_ROUTES)) {
      if (r.mutates) continue;
      const res = await fetch(`${api.url}${path.replace('/api/v1', '')}?id=${ids[r.fixture]}`, { headers: { 'X-API-KEY': owner.key } });
      expect(res.status, `owner ${path}`).to.equal(200);
      await res.arrayBuffer();
    }
    const before = await ownerState();
    const credentials: [string, RequestInit & { key?: string }][] = [
      ['X-API-KEY', { key: intruder.key }],
      ['Bearer', { headers: { Authorization: `Bearer ${intruderToken}` } }],
    ];
    let checked = 0;
    for (const [path, r] of Object.entries(ID_ROUTES)) {
      for (const variant of r.variants ?? ['']) {
        for (const [credential, init] of credentials) {
          const what = `${r.method} ${path}?id=${ids[r.fixture]}${variant} with the intruder's ${credential}`;
          const headers = { ...(init.headers as Record<string, string> | undefined) };
          const send = async (query: string, body?: string): Promise<Answer> =>
            call(api.url, `${path.replace('/api/v1', '')}${query}`, {
              ...init,
              method: r.method,
              headers: body ? { ...headers, 'Content-Type': 'application/json' } : headers,
              ...(body ? { body } : {}),
            });
          const answers = [await send(`?id=${ids[r.fixture]}${variant}`)];
          // POST operations also take the id in a JSON body.
          if (r.method === 'POST') answers.push(await send(variant ? `?${variant.slice(1)}` : '', JSON.stringify({ id: ids[r.fixture] })));
          for (const res of answers) {
            const show = `${what} → ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`;
            expect(res.status, show).to.equal(404);
            expect(res.body, show).to.include({ success: false, code: 'NOT_FOUND' });
            expect(res.body.error, show).to.be.a('string').and.not.equal('');
            expect(res.body.details?.request_id, show).to.be.a('string').and.not.equal('');
            // Nothing of the record leaks into the error.
            expect(JSON.stringify(res.body), show).to.not.include('private.test').and.not.include('secret');
            checked++;
          }
        }
      }
    }
    expect(checked).to.be.greaterThan(20);
    expect(await ownerState(), "the owner's records, files, ledger or balance changed").to.deep.equal(before);

    // And the owner still reads everything as before.
    const html = await fetch(`${api.url}/screenshot/html?id=${ids.screenshot}`, { headers: { 'X-API-KEY': owner.key } });
    expect(await html.text()).to.equal('<p>secret</p>');
    const info = await call(api.url, `/screenshot/info?id=${ids.screenshot}`, { key: owner.key });
    expect(info.body.data).to.include({ url: 'https://private.test/secret', status: 'finished', has_html: true, has_pdf: true, has_video: true });
    expect((await call(api.url, `/batch/info?id=${ids.batch}`, { key: owner.key })).body.data).to.include({ status: 'processing', name: 'mine' });
    expect((await call(api.url, `/crawl/info?id=${ids.crawl}`, { key: owner.key })).body.data.status).to.equal('processing');
    expect((await call(api.url, '/key/list', { key: owner.key })).body.data.map((k: { id: number }) => k.id)).to.include(ids.apiKey);
  });

  it('every route in upper or mixed case is a 404 with or without a credential, as an unknown path; in lower case it asks for one (issue #14)', async () => {
    // Paths match case-sensitively: the clients of the service write them in lower case, and a second
    // spelling would be a second way past the middleware mounted on /api/v1. Before, the routes matched
    // in any case while authentication matched only lower case: /API/V1/DEVICE/LIST answered 200 without
    // a key, and handlers that needed the caller 500.
    const routes = registeredRoutes(api);
    expect(routes.length).to.be.above(50);
    const origin = api.url.replace(/\/api\/v1$/, '');
    const flip = (path: string, pick: (segment: string, index: number) => boolean): string =>
      path
        .split('/')
        .map((s, i) => (pick(s, i) ? s.toUpperCase() : s))
        .join('/');
    const spellings = (path: string): string[] =>
      [
        ...new Set([
          path.toUpperCase(),
          // Capitalised segments: /Api/V1/Screenshot/Info
          path
            .split('/')
            .map((s) => s.charAt(0).toUpperCase() + s.slice(1))
            .join('/'),
          // only the prefix in upper case (the prefix's middleware skipped, the route matched)…
          flip(path, (_, i) => i === 1 || i === 2),
          // …or only the route's last segment (the prefix's middleware ran)
          flip(path, (_, i) => i === path.split('/').length - 1),
        ]),
      ].filter((p) => p !== path);
    // The routes under /api/v1 that take no credential: how a client gets one, and the API's description.
    const PUBLIC_API_PATH = /^\/api\/v1\/(auth\/|openapi\.json$)/;
    const before = await ownerState();
    let checked = 0;
    for (const r of routes) {
      const send = (path: string, init: RequestInit & { key?: string } = {}): Promise<Answer> =>
        call(origin, path, { ...init, method: r.method, ...(r.method === 'POST' ? { headers: { 'Content-Type': 'application/json' }, body: '{}' } : {}) });
      if (r.path.startsWith('/api/v1/') && !PUBLIC_API_PATH.test(r.path)) {
        // The lower-case form without a credential: authentication runs first.
        const lower = await send(r.path);
        expect(lower.status, `${r.method} ${r.path} without a credential → ${JSON.stringify(lower.body).slice(0, 200)}`).to.equal(401);
      }
      for (const path of spellings(r.path)) {
        for (const [who, init] of [
          ['no credential', {}],
          ["the owner's key", { key: owner.key }],
        ] as const) {
          const res = await send(path, init);
          const show = `${r.method} ${path} with ${who} → ${res.status} ${JSON.stringify(res.body).slice(0, 200)}`;
          expect(res.status, show).to.equal(404);
          expect(res.body, show).to.include({ success: false, code: 'NOT_FOUND' });
          expect(res.body.details?.request_id, show).to.be.a('string').and.not.equal('');
          checked++;
        }
      }
    }
    expect(checked).to.be.above(routes.length * 4);
    expect(await ownerState(), "a request in another case changed the owner's data").to.deep.equal(before);
  });

  it("lists and searches of another account never show the owner's records", async () => {
    // The intruder has records of its own, so an empty list is not what makes this pass.
    expect((await call(api.url, '/screenshot/create?url=intruder.test/private', { key: intruder.key })).status).to.equal(200);
    expect((await call(api.url, '/screenshot/search?url=private', { key: intruder.key })).body.data).to.have.length(1);
    for (const [path, field] of [
      ['/screenshot/list', 'id'],
      ['/screenshot/search?url=private', 'id'],
      ['/batch/list', 'id'],
      ['/crawl/list', 'id'],
    ] as const) {
      const res = await call(api.url, path, { key: intruder.key });
      expect(res.status, path).to.equal(200);
      expect(JSON.stringify(res.body), path).to.not.include('private.test');
      expect(
        res.body.data.map((r: Record<string, unknown>) => r[field]),
        path,
      ).to.not.include.members(Object.values(ids));
    }
  });
});
