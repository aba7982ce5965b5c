import { expect } from 'chai';
import { chromium, type Browser, type Page } from 'playwright-core';
import { PASSWORD, outboxToken, signupAdmin, uniqueEmail } from '../support/auth-helpers.js';
import { startTestApi, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';
import { until } from '../support/wait-until.js';

/** Debian's Chromium: browsers cannot be downloaded here. */
const CHROMIUM = '/usr/lib/chromium/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
/** Credits of a signed-up account: enough for the screenshot the test takes. */
const SIGNUP_CREDITS = 100;

/** The dashboard in a real Chromium against a running control plane with an embedded browser agent. */
describe('web dashboard, in Chromium against the running service', function () {
  this.timeout(90_000);
  let api: TestApi;
  let site: TestSite;
  let browser: Browser;
  let page: Page;
  let base: string;
  const consoleErrors: string[] = [];
  const email = uniqueEmail('dash');
  let screenshotId = 0;

  const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });
  /** Waits until the <img> matched has really decoded an image (a broken blob would stay at 0). */
  const decoded = async (selector: string): Promise<void> => {
    await page.waitForFunction(
      (sel) => {
        const img = document.querySelector<HTMLImageElement>(sel);
        return img !== null && img.complete && img.naturalWidth > 0;
      },
      selector,
      { timeout: 60_000, polling: 200 },
    );
  };
  const logIn = async (address: string, password = PASSWORD): Promise<void> => {
    await heading('Log in').waitFor();
    await page.getByLabel('Email', { exact: true }).fill(address);
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Log in' }).click();
    await heading('Overview').waitFor();
  };

  before(async () => {
    site = await TestSite.start();
    api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_SIGNUP_CREDITS: String(SIGNUP_CREDITS) }, { agent: true });
    base = api.plane.url;
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(15_000);
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(`${msg.text()} (${msg.location().url})`);
    });
    page.on('pageerror', (err) => consoleErrors.push(`page error: ${err.message}`));
  });
  after(async () => {
    await browser?.close();
    await api?.stop();
    await site?.close();
  });

  it('is served at / with hashed, immutable assets, without shadowing the API, health or metrics', async () => {
    const index = await fetch(`${base}/`);
    expect(index.status).to.equal(200);
    expect(index.headers.get('content-type')).to.match(/^text\/html/);
    expect(index.headers.get('cache-control')).to.equal('no-cache');
    expect(index.headers.get('content-security-policy')).to.include("script-src 'self'");
    const html = await index.text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script, html).to.be.a('string');
    const asset = await fetch(`${base}${script}`);
    expect(asset.status).to.equal(200);
    expect(asset.headers.get('content-type')).to.match(/^text\/javascript/);
    expect(asset.headers.get('cache-control')).to.include('immutable');
    expect((await fetch(`${base}/assets/no-such-file.js`)).status).to.equal(404);
    expect(await (await fetch(`${base}/healthz`)).json()).to.deep.equal({ status: 'ok' });
    expect((await fetch(`${base}/metrics`)).headers.get('content-type')).to.match(/^text\/plain/);
    const unauthenticated = await fetch(`${base}/api/v1/screenshot/list`);
    expect(unauthenticated.status).to.equal(401);
    expect((await unauthenticated.json()).code).to.equal('INVALID_API_KEY');
  });

  it('signs up through the form and lands on the overview showing the first API key; the link of the verification email brings the balance', async () => {
    await page.goto(`${base}/`);
    await heading('Log in').waitFor();
    await page.getByRole('link', { name: 'Sign up' }).click();
    await heading('Sign up').waitFor();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByLabel('Company (optional)').fill('Dashboard Test Co');
    await page.getByRole('button', { name: 'Sign up' }).click();
    await heading('Overview').waitFor();
    expect(await page.locator('.notice code.secret').innerText()).to.match(/\S{20,}/);
    expect(await page.getByText('Dashboard Test Co').count()).to.be.greaterThan(0);
    // Credits come with the verified email (issue 25): none yet, then the signup credits once the link is opened.
    expect(await page.getByRole('group', { name: 'Balance' }).innerText()).to.match(/(^|\D)0 credits/);
    await page.goto(`${base}/verify-email?token=${encodeURIComponent(await outboxToken(api.database.db, email, 'verify_email'))}`);
    await page.getByText('Your email address is verified.').waitFor();
    await page.getByRole('link', { name: 'Go to the overview' }).click();
    await heading('Overview').waitFor();
    expect(await page.getByRole('group', { name: 'Balance' }).innerText()).to.include(`${SIGNUP_CREDITS} credits`);
  });

  it('logs out and logs in again', async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await logIn(email);
    expect(await page.locator('.user-email').innerText()).to.equal(email);
  });

  it('creates a screenshot of a local page from the form; the list shows its thumbnail once finished', async () => {
    await nav('New screenshot').click();
    await heading('New screenshot').waitFor();
    await page.getByLabel('URLs', { exact: true }).fill(site.url('/links.html'));
    // hide_popups, hide_ads and hide_selector share a folded "Hide" section of the form (its summary opens it).
    await page.locator('details[data-section="Hide"] > summary').click();
    await page.getByLabel('Hide popups').check();
    await page.getByRole('button', { name: 'Take screenshot' }).click();
    await heading('Screenshots').waitFor();
    const card = page.getByRole('article', { name: /^Screenshot \d+$/ });
    await card.waitFor();
    screenshotId = Number((await card.getAttribute('aria-label'))?.replace('Screenshot ', ''));
    expect(screenshotId).to.be.greaterThan(0);
    // The list polls while the record is processing; the thumbnail is fetched once it has finished.
    await decoded(`article[aria-label="Screenshot ${screenshotId}"] img.thumb`);
    expect(await card.locator('.badge').innerText()).to.equal('finished');
  });

  it("the create form has an input for every create option of the service's OpenAPI document, and sends an option it did not know of", async () => {
    const doc = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as { paths: Record<string, { get: { parameters: { name: string; in: string; description?: string }[] } }> };
    const createParams = doc.paths['/screenshot/create']?.get.parameters ?? [];
    const options = createParams.filter((p) => p.in === 'query' && p.name !== 'key' && !p.description?.startsWith('alias of ')).map((p) => p.name);
    expect(options).to.include.members(['url', 'hide_popups', 'pdf_margin_top', 'video_fps', 'priority']);
    // A throwaway option, as the option table would put it in the document: the form must offer it.
    await page.route(`${base}/api/v1/openapi.json`, async (route) => {
      const res = await route.fetch();
      const served = (await res.json()) as typeof doc;
      served.paths['/screenshot/create']?.get.parameters.push({
        name: 'font_budget',
        in: 'query',
        description: 'web fonts loaded at most (throwaway)',
        schema: { type: 'integer', minimum: 0, maximum: 50 },
      } as never);
      await route.fulfill({ response: res, json: served });
    });
    try {
      await page.reload();
      await nav('New screenshot').click();
      await heading('New screenshot').waitFor();
      const form = page.getByRole('form', { name: 'New screenshot' });
      await form.getByLabel('Font budget').waitFor();
      const names = await form.locator('[name]').evaluateAll((els) => els.map((e) => e.getAttribute('name')));
      // apps: this account has none configured, so it has no boxes.
      expect(names).to.include.members([...options.filter((n) => n !== 'apps'), 'font_budget']);
      expect(await form.getByLabel('Font budget').getAttribute('max')).to.equal('50');
      await page.getByLabel('URLs', { exact: true }).fill(site.url('/links.html'));
      await form.getByLabel('Font budget').fill('7');
      await page.getByText('PDF', { exact: true }).click();
      await form.getByLabel('Pdf margin top').fill('5mm');
      const sent = page.waitForRequest((r) => r.url().includes('/api/v1/screenshot/create'));
      await page.getByRole('button', { name: 'Take screenshot' }).click();
      const query = new URL((await sent).url()).searchParams;
      expect([...query.keys()].sort()).to.deep.equal(['font_budget', 'pdf_margin_top', 'url']);
      expect(query.get('font_budget')).to.equal('7');
      await heading('Screenshots').waitFor();
    } finally {
      await page.unroute(`${base}/api/v1/openapi.json`);
    }
  });

  it('opens its detail page: every field of the record and the shot', async () => {
    await page
      .getByRole('article', { name: `Screenshot ${screenshotId}` })
      .getByRole('link', { name: site.url('/links.html'), exact: true })
      .click();
    await heading(`Screenshot ${screenshotId}`).waitFor();
    const fields = page.getByRole('table', { name: 'Every field of the record' });
    await fields.waitFor();
    const rowOf = (name: string) => fields.getByRole('row').filter({ has: page.getByRole('cell', { name, exact: true }) });
    expect(await rowOf('url').innerText()).to.include(site.url('/links.html'));
    expect(await rowOf('status').innerText()).to.include('finished');
    expect(await rowOf('hide_popups').innerText()).to.include('true');
    expect(await rowOf('id').innerText()).to.include(String(screenshotId));
    await decoded('img[alt^="Shot 1 of"]');
  });

  it("creates a monitor from the form; its timeline shows each run's thumbnail, and a run opens the before/after slider and the diff", async () => {
    await nav('Monitors').click();
    await heading('Monitors').waitFor();
    await page.getByLabel('Page URL').fill(site.url('/links.html'));
    await page.getByLabel('Every (minutes)').fill('60');
    await page.getByRole('button', { name: 'Start monitoring' }).click();
    await page.getByRole('heading', { level: 1, name: /^Monitor \d+: / }).waitFor();
    // The first run starts at once; its thumbnail appears in the timeline once it has finished.
    await decoded('.runs li img.thumb');
    await page.getByRole('button', { name: 'Run now' }).click();
    await page.locator('.runs li').nth(1).waitFor({ timeout: 30_000 });
    await decoded('.runs li:first-child img.thumb');
    const compare = page.locator('.runs li').first().getByRole('button', { name: 'Compare' });
    await page.waitForFunction(() => !document.querySelector<HTMLButtonElement>('.runs li:first-child button.run')?.disabled, null, { timeout: 60_000, polling: 200 });
    await compare.click();
    await decoded('img.compare-img[alt^="Before"]');
    await decoded('img.compare-img[alt^="After"]');
    await decoded('img[alt="Changed pixels in red"]');
    // The slider uncovers the after shot: at 30 % it is clipped 70 % from the right.
    await page.getByRole('slider', { name: 'Before / after' }).fill('30');
    expect(await page.locator('img.compare-top').evaluate((img) => (img as HTMLImageElement).style.clipPath)).to.equal('inset(0px 70% 0px 0px)');
  });

  it("starts a batch from the form, which offers the create form's options and applies the ones set to each URL", async () => {
    await nav('Batches').click();
    await heading('Batches').waitFor();
    const form = page.getByRole('form', { name: 'New batch' });
    await form.getByLabel('Hide popups').waitFor({ state: 'attached' });
    const doc = (await (await fetch(`${base}/api/v1/openapi.json`)).json()) as { paths: Record<string, { get: { parameters: { name: string; in: string; description?: string }[] } }> };
    const options = (doc.paths['/screenshot/create']?.get.parameters ?? [])
      .filter((p) => p.in === 'query' && !['key', 'url', 'apps'].includes(p.name) && !p.description?.startsWith('alias of '))
      .map((p) => p.name);
    const names = await form.locator('[name]').evaluateAll((els) => els.map((e) => e.getAttribute('name')));
    expect(names).to.include.members([...options, 'file', 'name', 'thumbnail_width']);
    expect(names).to.not.include('url');

    await form.getByLabel('URL list file').setInputFiles({ name: 'urls.txt', mimeType: 'text/plain', buffer: Buffer.from(`${site.url('/target.html')}\n${site.url('/links.html')}\n`) });
    await form.getByLabel('Batch name').fill('form batch');
    await form.getByLabel('Size', { exact: true }).selectOption('page');
    await form.getByLabel('Tag', { exact: true }).fill('from-form, second');
    const answered = page.waitForResponse((r) => r.url().includes('/api/v1/batch/create'));
    await page.getByRole('button', { name: 'Start batch' }).click();
    const created = ((await (await answered).json()) as { data: { id: number } | { id: number }[] }).data;
    const batchId = (Array.isArray(created) ? created[0] : created)?.id;
    expect(batchId).to.be.a('number');
    await page.getByRole('link', { name: String(batchId), exact: true }).waitFor();
    // Each URL's record carries the options the form set, and the service's defaults for the rest.
    const records = await until('the batch records', async () => {
      const rows = await api.database.db('screenshots').where({ batch_id: batchId }).select('capture_spec', 'tag');
      return rows.length === 2 ? rows : null;
    });
    for (const row of records) {
      expect((row.capture_spec as { size: string }).size).to.equal('page');
      expect(row.tag).to.deep.equal(['from-form', 'second']);
    }
  });

  it("lets an admin open the nodes page, which lists the embedded agent's node", async () => {
    const admin = await signupAdmin(api);
    const [node] = await api.parts.registry.list();
    expect(node, 'the embedded agent heartbeats').to.not.equal(undefined);
    await page.getByRole('button', { name: 'Log out' }).click();
    await logIn(admin.user.email);
    await nav('Nodes').click();
    await heading('Nodes').waitFor();
    const nodes = page.getByRole('table', { name: 'Live nodes of the farm' });
    await nodes.getByRole('cell', { name: node!.id, exact: true }).waitFor();
    expect(await nodes.innerText()).to.include('chrome');
  });

  it("resets a forgotten password from the email's link, then logs in with the new one", async () => {
    await page.getByRole('button', { name: 'Log out' }).click();
    await heading('Log in').waitFor();
    await page.getByRole('link', { name: 'Forgot your password?' }).click();
    // The login form has an Email field too: fill the reset form's only once it is on screen.
    await heading('Reset your password').waitFor();
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByRole('button', { name: 'Send reset link' }).click();
    await page.getByText('an email with a reset link is on its way').waitFor();
    // The link of the email, as account-email.ts writes it: a path of the control plane, not a hash route.
    await page.goto(`${base}/reset-password?token=${encodeURIComponent(await outboxToken(api.database.db, email, 'reset_password'))}`);
    await heading('Choose a new password').waitFor();
    const newPassword = `${PASSWORD} renewed`;
    await page.getByLabel('New password').fill(newPassword);
    await page.getByRole('button', { name: 'Set password' }).click();
    await logIn(email, newPassword);
  });

  it('logged no console errors and no page errors along the way', () => {
    expect(consoleErrors).to.deep.equal([]);
  });
});
