import http from 'node:http';
import { expect } from 'chai';
import type { Browser } from 'playwright-core';
import { loadConfig } from '../../core/config/load-config.js';
import { launchChromium } from '../../drivers/playwright/launch-browser.js';
import { bearer, expectEnvelope, json, PASSWORD, signup, signupAdmin } from '../support/auth-helpers.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';

/** The cookies a response sets, by name: value and attributes as sent. */
function setCookies(headers: Headers): Map<string, { value: string; attributes: string[] }> {
  const out = new Map<string, { value: string; attributes: string[] }>();
  for (const line of headers.getSetCookie()) {
    const [pair = '', ...attributes] = line.split(';').map((p) => p.trim());
    const eq = pair.indexOf('=');
    out.set(pair.slice(0, eq), { value: pair.slice(eq + 1), attributes });
  }
  return out;
}

const cookie = (session: string, admin?: string): Record<string, string> => ({ Cookie: `shotfarm_session=${session}${admin ? `; shotfarm_admin_session=${admin}` : ''}` });

/**
 * The dashboard's session is an HttpOnly, SameSite=Strict cookie; since the browser sends it with every
 * request to /api/v1, whoever started it, it authenticates only with the session's CSRF proof
 * (X-CSRF-Token). API clients keep their API keys and Bearer tokens, which need no proof.
 */
describe("the dashboard's cookie session and its CSRF proof", function () {
  this.timeout(90_000);
  let api: TestApi;
  let user: { email: string; id: number; companyId: number; key: string };
  /** The login answer's token (also the cookie's value) and CSRF proof. */
  let session: { token: string; csrf: string };

  const keysOf = async (companyId: number): Promise<number> => Number((await api.database.db('api_keys').where({ company_id: companyId, revoked_at: null }).count('* as n'))[0]?.n);
  const recordsOf = async (companyId: number): Promise<number> => Number((await api.database.db('screenshots').where({ company_id: companyId }).count('* as n'))[0]?.n);

  async function login(email: string, headers: Record<string, string> = {}): Promise<{ token: string; csrf: string; cookies: ReturnType<typeof setCookies>; body: any }> {
    const res = await call(api.url, '/auth/login', json({ email, password: PASSWORD }, headers));
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const current = await call(api.url, '/auth/session', { headers: cookie(res.body.data.token) });
    return { token: res.body.data.token, csrf: current.body.data.csrf_token, cookies: setCookies(res.headers), body: res.body.data };
  }

  before(async () => {
    // The test client is the service's TLS-ending proxy (X-Forwarded-Proto is believed from it only).
    api = await startTestApi('pglite', { SHOTFARM_SIGNUP_CREDITS: '100', SHOTFARM_TRUSTED_PROXIES: '127.0.0.1,::1' });
    const made = await signup(api);
    user = { email: made.user.email, id: made.user.id, companyId: made.user.company.id, key: made.api_key.key };
    session = await login(user.email);
  });
  after(async () => api?.stop());

  it("login sets the token as an HttpOnly, SameSite=Strict cookie of /api/v1, Secure behind https, for the token's lifetime", async () => {
    const { token, csrf, cookies } = await login(user.email);
    expect(csrf).to.match(/^[\w-]{43}$/);
    const set = cookies.get('shotfarm_session');
    expect(set?.value).to.equal(token);
    expect(set?.attributes).to.include.members(['Path=/api/v1', 'HttpOnly', 'SameSite=Strict']);
    expect(set?.attributes).to.not.include('Secure');
    const lifetime = Number(set?.attributes.find((a) => a.startsWith('Max-Age='))?.slice('Max-Age='.length));
    expect(lifetime).to.be.within(api.config.auth.jwtTtlSeconds - 5, api.config.auth.jwtTtlSeconds);
    // Any impersonation kept aside ends with a fresh login.
    expect(cookies.get('shotfarm_admin_session')?.attributes).to.include('Max-Age=0');
    const overHttps = await login(user.email, { 'X-Forwarded-Proto': 'https' });
    expect(overHttps.cookies.get('shotfarm_session')?.attributes).to.include('Secure');
    // Signup starts a cookie session too.
    const res = await call(api.url, '/auth/signup', json({ email: `cookie-${Date.now()}@example.test`, password: PASSWORD }));
    expect(setCookies(res.headers).get('shotfarm_session')?.value).to.equal(res.body.data.token);
  });

  it("the cookie without its proof is refused with 403 in the spec's envelope, and nothing changes, for any method", async () => {
    const keys = await keysOf(user.companyId);
    const records = await recordsOf(user.companyId);
    const ledger = await api.database.db('credit_ledger').where({ company_id: user.companyId }).count('* as n');
    const attempts: [string, RequestInit][] = [
      ['/key/create', { ...json({ name: 'forged' }), headers: { 'Content-Type': 'application/json', ...cookie(session.token) } }],
      // A form POST needs no preflight: what a page of another origin can send with the cookie.
      ['/key/create', { method: 'POST', headers: { 'Content-Type': 'application/x-www-form-urlencoded', ...cookie(session.token) }, body: 'name=forged' }],
      // The spec's GETs that change things: an <img> could send these.
      ['/screenshot/create?url=example.test', { headers: cookie(session.token) }],
      ['/auth/me', { headers: cookie(session.token) }],
      // A proof, but of another user's session: proofs are bound to their token.
      ['/key/create', { ...json({ name: 'forged' }), headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': (await login((await signup(api)).user.email)).csrf, ...cookie(session.token) } }],
      [
        '/key/create',
        {
          ...json({ name: 'forged' }),
          headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': `${session.csrf.slice(0, -1)}${session.csrf.endsWith('A') ? 'B' : 'A'}`, ...cookie(session.token) },
        },
      ],
    ];
    for (const [path, init] of attempts) {
      const body = expectEnvelope(await call(api.url, path, init), 403, 'CSRF_REJECTED');
      expect(body.status).to.equal('error');
      expect(body.error).to.include('X-CSRF-Token');
    }
    expect(await keysOf(user.companyId)).to.equal(keys);
    expect(await recordsOf(user.companyId)).to.equal(records);
    expect(await api.database.db('credit_ledger').where({ company_id: user.companyId }).count('* as n')).to.deep.equal(ledger);
  });

  it('with the proof the cookie works; an invalid cookie is a 401', async () => {
    const proof = { 'X-CSRF-Token': session.csrf, ...cookie(session.token) };
    const keys = await keysOf(user.companyId);
    const made = await call(api.url, '/key/create', { ...json({ name: 'from the dashboard' }), headers: { 'Content-Type': 'application/json', ...proof } });
    expect(made.status, JSON.stringify(made.body)).to.equal(200);
    expect(await keysOf(user.companyId)).to.equal(keys + 1);
    const me = await call(api.url, '/auth/me', { headers: proof });
    expect(me.body.data).to.include({ id: user.id, email: user.email, impersonated_by: null });
    expectEnvelope(await call(api.url, '/auth/me', { headers: { 'X-CSRF-Token': session.csrf, ...cookie(`${session.token}x`) } }), 401, 'INVALID_API_KEY');
  });

  it('API keys and Bearer tokens need no proof, and win over a cookie of someone else', async () => {
    const other = await signup(api);
    const otherSession = await login(other.user.email);
    for (const headers of [{ 'X-API-KEY': user.key }, bearer(session.token)]) {
      const made = await call(api.url, '/key/create', { ...json({ name: 'scripted' }), headers: { 'Content-Type': 'application/json', ...headers, ...cookie(otherSession.token) } });
      expect(made.status, JSON.stringify(made.body)).to.equal(200);
      const me = await call(api.url, '/auth/me', { headers: { ...headers, ...cookie(otherSession.token) } });
      expect(me.body.data.id).to.equal(user.id);
    }
    expect((await call(api.url, `/screenshot/list?key=${encodeURIComponent(user.key)}`)).status).to.equal(200);
  });

  it("GET /auth/session answers the cookie's user and proof, or null; POST /auth/logout clears the cookies", async () => {
    const none = await call(api.url, '/auth/session');
    expect(none.status).to.equal(200);
    expect(none.body.data).to.equal(null);
    expect((await call(api.url, '/auth/session', { headers: cookie('not-a-token') })).body.data).to.equal(null);
    const current = await call(api.url, '/auth/session', { headers: cookie(session.token) });
    expect(current.headers.get('cache-control')).to.equal('no-store');
    expect(current.body.data.csrf_token).to.equal(session.csrf);
    expect(current.body.data.user).to.include({ id: user.id, impersonated_by: null });
    // A request another origin's page started (as the browser says) never gets the proof.
    for (const site of ['same-site', 'cross-site']) {
      expect((await call(api.url, '/auth/session', { headers: { 'Sec-Fetch-Site': site, ...cookie(session.token) } })).body.data, site).to.equal(null);
    }
    const out = await call(api.url, '/auth/logout', { method: 'POST', headers: cookie(session.token) });
    expect(out.status).to.equal(200);
    const cleared = setCookies(out.headers);
    for (const name of ['shotfarm_session', 'shotfarm_admin_session']) {
      expect(cleared.get(name)?.value, name).to.equal('');
      expect(cleared.get(name)?.attributes, name).to.include.members(['Max-Age=0', 'Path=/api/v1']);
    }
  });

  it("an admin impersonates through the cookie and comes back: the admin's session is kept aside, HttpOnly too", async () => {
    const admin = await signupAdmin(api);
    const own = await login(admin.user.email);
    const acting = await call(api.url, '/admin/impersonate', { ...json({ user_id: user.id }), headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': own.csrf, ...cookie(own.token) } });
    expect(acting.status, JSON.stringify(acting.body)).to.equal(200);
    const swapped = setCookies(acting.headers);
    expect(swapped.get('shotfarm_session')?.value).to.equal(acting.body.data.token);
    expect(swapped.get('shotfarm_admin_session')?.value).to.equal(own.token);
    expect(swapped.get('shotfarm_admin_session')?.attributes).to.include.members(['HttpOnly', 'SameSite=Strict', 'Path=/api/v1']);

    const asUser = (await call(api.url, '/auth/session', { headers: cookie(acting.body.data.token, own.token) })).body.data;
    expect(asUser.user).to.include({ id: user.id, impersonated_by: admin.user.id });
    // Without the proof of the impersonation session, going back is refused like any other request.
    expectEnvelope(await call(api.url, '/auth/impersonation/end', { method: 'POST', headers: { 'X-CSRF-Token': own.csrf, ...cookie(acting.body.data.token, own.token) } }), 403, 'CSRF_REJECTED');
    // With the impersonation token as a Bearer there is no cookie session to go back to.
    expectEnvelope(await call(api.url, '/auth/impersonation/end', { method: 'POST', headers: bearer(acting.body.data.token) }), 403, 'FORBIDDEN');

    const back = await call(api.url, '/auth/impersonation/end', { method: 'POST', headers: { 'X-CSRF-Token': asUser.csrf_token, ...cookie(acting.body.data.token, own.token) } });
    expect(back.status, JSON.stringify(back.body)).to.equal(200);
    expect(back.body.data.user).to.include({ id: admin.user.id, impersonated_by: null });
    expect(back.body.data.csrf_token).to.equal(own.csrf);
    const restored = setCookies(back.headers);
    expect(restored.get('shotfarm_session')?.value).to.equal(own.token);
    expect(restored.get('shotfarm_admin_session')?.attributes).to.include('Max-Age=0');
  });

  it("in Chromium, the dashboard acts as a user and comes back, the admin's session never readable by the page", async () => {
    const admin = await signupAdmin(api);
    const browser = await launchChromium(loadConfig({}).agent.chromiumPath);
    try {
      const context = await browser.newContext();
      const page = await context.newPage();
      page.setDefaultTimeout(15_000);
      const errors: string[] = [];
      page.on('pageerror', (err) => errors.push(err.message));
      const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });
      await page.goto(`${api.plane.url}/#/login`);
      await page.getByLabel('Email', { exact: true }).fill(admin.user.email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await heading('Overview').waitFor();
      await page.goto(`${api.plane.url}/#/admin/users?email=${encodeURIComponent(user.email)}`);
      await heading('Users').waitFor();
      await page.getByRole('row').filter({ hasText: user.email }).getByRole('button', { name: 'Act as' }).click();
      await page.getByText('acting as this user').waitFor();
      expect(await page.locator('.user-email').innerText()).to.equal(user.email);
      expect(await page.evaluate(() => document.cookie + JSON.stringify({ ...localStorage }))).to.equal('{}');
      // A reload keeps acting: the session is the cookie's.
      await page.reload();
      await page.getByText('acting as this user').waitFor();
      await page.getByRole('button', { name: 'Back to my account' }).click();
      await page.getByRole('button', { name: 'Log out' }).waitFor();
      expect(await page.locator('.user-email').innerText()).to.equal(admin.user.email);
      await page.getByRole('button', { name: 'Log out' }).click();
      await heading('Log in').waitFor();
      expect(await context.cookies(`${api.url}/`)).to.deep.equal([]);
      await page.reload();
      await heading('Log in').waitFor();
      expect(errors).to.deep.equal([]);
    } finally {
      await browser.close();
    }
  });

  describe('in Chromium: a page of another origin on the same site, while the user is logged in', function () {
    let browser: Browser;
    let attacker: { origin: string; stop(): Promise<void> };

    before(async () => {
      // 127.0.0.1 on another port is another origin but the same site: SameSite lets the cookie go, so
      // only the CSRF proof stands between this page and the user's account.
      attacker = await listenOnLoopback(
        http.createServer((req, res) => {
          res.setHeader('Content-Type', 'text/html');
          res.end(`<!doctype html>
<form id="f" method="POST" action="${api.url}/key/create"><input name="name" value="forged by a form"></form>
<script>
  // One after the other, so that the form's navigation cancels nothing: an image, a fetch, the form.
  const img = new Image();
  img.onload = img.onerror = () => fetch('${api.url}/key/create', { method: 'POST', credentials: 'include', headers: { 'Content-Type': 'application/json', 'X-CSRF-Token': 'guessed' }, body: '{"name":"forged by fetch"}' })
    .catch(() => undefined).finally(() => document.getElementById('f').submit());
  img.src = '${api.url}/screenshot/create?url=example.test%2Fforged';
</script>`);
        }),
      );
      browser = await launchChromium(loadConfig({}).agent.chromiumPath);
    });
    after(async () => {
      await browser?.close();
      await attacker?.stop();
    });

    it('its image, form and fetch reach the API with the cookie, and change nothing', async () => {
      const context = await browser.newContext();
      const page = await context.newPage();
      const base = api.plane.url;
      await page.goto(`${base}/#/login`);
      await page.getByLabel('Email', { exact: true }).fill(user.email);
      await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
      await page.getByRole('button', { name: 'Log in' }).click();
      await page.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
      const keys = await keysOf(user.companyId);
      const records = await recordsOf(user.companyId);

      // What left the browser for the API, and whether the session cookie went with it.
      const sent: { method: string; url: string; withCookie: boolean }[] = [];
      page.on('request', (req) => {
        if (!req.url().startsWith(api.url)) return;
        void req.allHeaders().then((h) => sent.push({ method: req.method(), url: req.url(), withCookie: (h.cookie ?? '').includes('shotfarm_session=') }));
      });
      await page.goto(`${attacker.origin}/`);
      // The form's POST navigates the page to the API's answer.
      await page.waitForURL(`${api.url}/key/create`);
      expect(await page.locator('body').innerText()).to.include('CSRF_REJECTED');
      // The image's request went out (its JSON answer is blocked by the browser, unread; that it carried
      // the cookie shows when GETs are let through without the proof: this test then finds a new record);
      // the fetch with a custom header stopped at its preflight; the form went with the cookie, refused.
      expect(sent.map((r) => r.url)).to.include(`${api.url}/screenshot/create?url=example.test%2Fforged`);
      expect(sent, JSON.stringify(sent)).to.deep.include({ method: 'POST', url: `${api.url}/key/create`, withCookie: true });
      expect(await keysOf(user.companyId)).to.equal(keys);
      expect(await recordsOf(user.companyId)).to.equal(records);
      await context.close();
    });
  });
});
