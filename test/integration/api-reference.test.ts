import { expect } from 'chai';
import { chromium, type Browser } from 'playwright-core';
import { ROUTES } from '../../api/route-table.js';
import { startTestApi, type TestApi } from '../support/test-api.js';

/** Debian's Chromium: browsers cannot be downloaded here. */
const CHROMIUM = '/usr/lib/chromium/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/** A request that stays on this machine: loopback, or a URL the page made itself (data:, blob:). */
function staysLocal(url: string): boolean {
  const u = new URL(url);
  if (u.protocol === 'data:' || u.protocol === 'blob:') return true;
  return ['127.0.0.1', 'localhost', '[::1]'].includes(u.hostname);
}

/** GET /docs: openapi.json rendered by Redoc, served from node_modules, in a real Chromium. */
describe('API reference at /docs, in Chromium', function () {
  this.timeout(90_000);
  let api: TestApi;
  let browser: Browser;

  before(async () => {
    api = await startTestApi('pglite');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    await api?.stop();
  });

  it("renders every operation's name, and no request leaves loopback", async () => {
    const context = await browser.newContext();
    const requested: string[] = [];
    const leaving: string[] = [];
    // Every request the page makes passes here first: one for another host is recorded and never sent.
    await context.route('**/*', async (route) => {
      const url = route.request().url();
      requested.push(url);
      if (staysLocal(url)) await route.continue();
      else {
        leaving.push(url);
        await route.abort();
      }
    });
    const page = await context.newPage();
    const errors: string[] = [];
    page.on('pageerror', (err) => errors.push(err.message));
    const res = await page.goto(`${api.plane.url}/docs`);
    expect(res?.status()).to.equal(200);
    expect(res?.headers()['content-security-policy']).to.include("script-src 'self'");
    // Redoc has rendered the document: the operations' headings are there.
    await page.getByRole('heading', { name: 'Create screenshot(s): one record per url × country' }).waitFor({ timeout: 60_000 });
    const text = await page.evaluate(() => document.body.innerText);
    const missing = ROUTES.map((r) => r.summary).filter((summary) => !text.includes(summary));
    expect(missing, 'operations not shown').to.deep.equal([]);
    expect(text).to.include('shotfarm screenshot API');
    // The renderer came from this server, and fetched the document from it.
    expect(requested.map((u) => new URL(u).pathname)).to.include.members(['/docs', '/docs/redoc.standalone.js', '/api/v1/openapi.json']);
    expect(leaving, 'requests to other hosts').to.deep.equal([]);
    expect(requested.filter((u) => !staysLocal(u))).to.deep.equal([]);
    expect(errors).to.deep.equal([]);
    await context.close();
  });

  it('serves the bundle only at its own path, and leaves every other path to the API', async () => {
    const bundle = await fetch(`${api.plane.url}/docs/redoc.standalone.js`);
    expect(bundle.status).to.equal(200);
    expect(bundle.headers.get('content-type')).to.equal('text/javascript; charset=utf-8');
    expect((await bundle.arrayBuffer()).byteLength).to.be.above(100_000);
    expect((await fetch(`${api.plane.url}/docs/other.js`)).status).to.equal(404);
    expect((await fetch(`${api.plane.url}/docs`, { method: 'POST' })).status).to.equal(404);
  });
});
