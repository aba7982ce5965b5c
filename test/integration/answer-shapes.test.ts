import { expect } from 'chai';
import { z } from 'zod';
import { ROUTES } from '../../api/route-table.js';
import { bearer, json, outboxToken, PASSWORD, signupAdmin, uniqueEmail } from '../support/auth-helpers.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';

/** The 200 shape a route declares (and openapi.json documents): the envelope around `data`, or its own JSON. */
function declaredShape(method: string, path: string): z.ZodType {
  const route = ROUTES.find((r) => r.method === method && r.path === path);
  if (!route) throw new Error(`no route ${method} ${path}`);
  if ('data' in route.response) return z.object({ success: z.literal(true), data: route.response.data });
  if ('json' in route.response) return route.response.json;
  throw new Error(`${method} ${path} answers a file`);
}

/**
 * The documented answers are the real ones: every JSON operation is called against a running control
 * plane and its 200 checked against the shape its descriptor declares. A shape that drifted from its
 * handler fails here, not in a client generated from the document.
 */
describe('answers match the shapes openapi.json documents', function () {
  this.timeout(120_000);
  let api: TestApi;
  const checked = new Set<string>();

  const expectShape = async (method: 'get' | 'post', path: string, pathAndQuery: string, init: RequestInit & { key?: string } = {}): Promise<any> => {
    const res = await call(path.startsWith('/healthz') || path.startsWith('/readyz') ? api.plane.url : api.url, pathAndQuery, init);
    expect(res.status, `${method} ${pathAndQuery}: ${JSON.stringify(res.body).slice(0, 300)}`).to.equal(200);
    const parsed = declaredShape(method, path).safeParse(res.body);
    expect(parsed.success, `${method} ${path}: ${parsed.error ? z.prettifyError(parsed.error) : ''}`).to.equal(true);
    checked.add(`${method} ${path}`);
    return res.body.data ?? res.body;
  };

  before(async () => {
    api = await startTestApi('pglite', { SHOTFARM_SIGNUP_CREDITS: '100' });
  });
  after(async () => api?.stop());

  it('every JSON operation a user and an admin can call answers its declared shape', async () => {
    const email = uniqueEmail('shapes');
    const signedUp = await expectShape('post', '/auth/signup', '/auth/signup', json({ email, password: PASSWORD, name: 'Shape' }));
    const key = signedUp.api_key.key as string;
    // Credits come with a verified email (the screenshots below spend them).
    await expectShape('post', '/auth/verify-email', '/auth/verify-email', json({ token: await outboxToken(api.database.db, email, 'verify_email') }));
    await expectShape('post', '/auth/login', '/auth/login', json({ email, password: PASSWORD }));
    await expectShape('get', '/auth/session', '/auth/session');
    await expectShape('post', '/auth/forgot-password', '/auth/forgot-password', json({ email }));
    await expectShape('get', '/auth/me', '/auth/me', { key });
    await expectShape('get', '/key/list', '/key/list', { key });
    const newKey = await expectShape('post', '/key/create', '/key/create', { ...json({ name: 'second' }), key });
    await expectShape('post', '/key/rotate-signing-secret', '/key/rotate-signing-secret', { ...json({ id: newKey.id }), key });
    await expectShape('post', '/key/sign-link', '/key/sign-link', { ...json({ id: newKey.id, query: 'url=a.test' }), key });
    await expectShape('post', '/key/delete', `/key/delete?id=${newKey.id}`, { method: 'POST', key });

    const [shot] = await expectShape('get', '/screenshot/create', '/screenshot/create?url=a.test&tag=x', { key });
    await expectShape('post', '/screenshot/create', '/screenshot/create', { ...json({ source_html: '<p>shape</p>', tag: 'x' }), key });
    await expectShape('get', '/screenshot/info', `/screenshot/info?id=${shot.id}`, { key });
    await expectShape('get', '/screenshot/list', '/screenshot/list', { key });
    await expectShape('get', '/screenshot/search', '/screenshot/search?url=a.test', { key });

    const [batch] = await expectShape('post', '/batch/create', '/batch/create', { ...json({ urls: ['b.test', 'c.test'] }), key });
    await expectShape('get', '/batch/info', `/batch/info?id=${batch.id}`, { key });
    await expectShape('get', '/batch/list', '/batch/list', { key });
    await expectShape('post', '/batch/cancel', `/batch/cancel?id=${batch.id}`, { method: 'POST', key });
    // The cancelled screenshots ended in error: the retry captures them again.
    await expectShape('post', '/batch/retry', '/batch/retry', { ...json({ id: batch.id }), key });

    const crawl = await expectShape('post', '/crawl/create', '/crawl/create', { ...json({ url: 'https://d.test/', domain: 'd.test', max_urls: 2 }), key });
    await expectShape('get', '/crawl/info', `/crawl/info?id=${crawl.id}`, { key });
    await expectShape('get', '/crawl/list', '/crawl/list', { key });
    await expectShape('post', '/crawl/cancel', '/crawl/cancel', { ...json({ id: crawl.id }), key });

    const monitor = await expectShape('post', '/monitor/create', '/monitor/create', {
      ...json({ url: 'https://e.test/', interval: 300, ignore: ['#clock', { x: 0, y: 0, width: 10, height: 10 }] }),
      key,
    });
    await expectShape('get', '/monitor/list', '/monitor/list', { key });
    await expectShape('get', '/monitor/info', `/monitor/info?id=${monitor.id}`, { key });
    await expectShape('post', '/monitor/update', '/monitor/update', { ...json({ id: monitor.id, threshold: 2.5 }), key });
    await expectShape('post', '/monitor/pause', '/monitor/pause', { ...json({ id: monitor.id }), key });
    await expectShape('post', '/monitor/resume', '/monitor/resume', { ...json({ id: monitor.id }), key });
    await expectShape('post', '/monitor/run', '/monitor/run', { ...json({ id: monitor.id }), key });
    await expectShape('get', '/monitor/runs', `/monitor/runs?id=${monitor.id}`, { key });
    await expectShape('post', '/monitor/delete', '/monitor/delete', { ...json({ id: monitor.id }), key });

    await expectShape('get', '/device/list', '/device/list', { key });
    await expectShape('get', '/account/info', '/account/info', { key });
    await expectShape('get', '/dashboard/overview', '/dashboard/overview', { key });
    await expectShape('get', '/app/types', '/app/types', { key });
    const app = await expectShape('post', '/app/create', '/app/create', {
      ...json({ app_id: 'hook', type: 'webhook', name: 'Hook', settings: { url: 'http://127.0.0.1:9/hook', secret: `whsec_${Buffer.alloc(32, 7).toString('base64')}` } }),
      key,
    });
    await expectShape('get', '/app/list', '/app/list', { key });
    await expectShape('get', '/app/info', `/app/info?id=${app.id}`, { key });
    await expectShape('post', '/app/update', `/app/update?id=${app.id}`, { ...json({ name: 'Renamed' }), key });
    await expectShape('post', '/app/delete', `/app/delete?id=${app.id}`, { method: 'POST', key });

    await expectShape('get', '/billing/plans', '/billing/plans', { key });
    await expectShape('get', '/billing/receipts', '/billing/receipts', { key });

    const admin = await signupAdmin(api);
    const asAdmin = { headers: bearer(admin.token) };
    await expectShape('get', '/admin/overview', '/admin/overview', asAdmin);
    await expectShape('get', '/admin/users', '/admin/users', asAdmin);
    await expectShape('get', '/admin/outbox', '/admin/outbox', asAdmin);
    const [node] = await expectShape('get', '/admin/nodes', '/admin/nodes', asAdmin);
    await expectShape('get', '/admin/browsers', '/admin/browsers', asAdmin);
    await expectShape('post', '/admin/nodes/drain', '/admin/nodes/drain', json({ id: node.id }, bearer(admin.token)));
    await expectShape('post', '/admin/nodes/undrain', '/admin/nodes/undrain', json({ id: node.id }, bearer(admin.token)));
    await expectShape('post', '/admin/credits', '/admin/credits', json({ company_id: signedUp.user.company.id, amount: 5, reason: 'shape test' }, bearer(admin.token)));
    await expectShape('post', '/billing/invoiced-accounts', '/billing/invoiced-accounts', json({ companyId: signedUp.user.company.id }, bearer(admin.token)));
    // An invoiced customer may add a method through the offline provider.
    await expectShape('post', '/billing/payment-methods', '/billing/payment-methods', { ...json({ type: 'card', brand: 'visa', last4: '4242', expirationMonth: 4, expirationYear: 2030 }), key });
    await expectShape('get', '/billing/payment-methods', '/billing/payment-methods', { key });
    await expectShape('post', '/admin/impersonate', '/admin/impersonate', json({ user_id: signedUp.user.id }, bearer(admin.token)));
    await expectShape('post', '/auth/logout', '/auth/logout', { method: 'POST' });
    await expectShape('post', '/auth/change-password', '/auth/change-password', { ...json({ current_password: PASSWORD, password: `${PASSWORD} changed` }), key });
    await expectShape('get', '/screenshot/delete', `/screenshot/delete?id=${shot.id}`, { key });

    await expectShape('get', '/healthz', '/healthz');
    await expectShape('get', '/readyz', '/readyz');

    // What is left unchecked is said here, so that a new JSON route is added above.
    const json200 = ROUTES.filter((r) => !('content' in r.response)).map((r) => `${r.method} ${r.path}`);
    expect(json200.filter((r) => !checked.has(r)).sort()).to.deep.equal(
      [
        // They need a one-time token from an email, a paid plan or a dashboard impersonation: their suites cover them.
        'get /openapi.json',
        // MCP's JSON-RPC (its own protocol, not the API's shapes): test/integration/mcp.test.ts speaks it with the SDK's client.
        'get /mcp',
        'post /mcp',
        'post /auth/impersonation/end',
        'post /auth/reset-password',
        'post /billing/cancel',
        'post /billing/subscribe',
      ].sort(),
    );
  });
});
