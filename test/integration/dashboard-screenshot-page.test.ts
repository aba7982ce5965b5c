import { execFile } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import { promisify } from 'node:util';
import { expect } from 'chai';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';
import { PASSWORD, signup, uniqueEmail, verifyEmail } from '../support/auth-helpers.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';

const run = promisify(execFile);
/** Debian's Chromium: browsers cannot be downloaded here. */
const CHROMIUM = '/usr/lib/chromium/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];
const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };

/** A local port nothing listens on (one the system just gave out and took back). */
async function closedPort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The options of a record a repeat must carry over. */
const optionsOf = (r: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(['url', 'size', 'shots', 'shot_interval', 'html', 'pdf', 'video', 'hide_popups', 'screen_width', 'browser', 'country', 'tag'].map((k) => [k, r[k]]));

/**
 * The dashboard's screenshot page in a real Chromium, at a phone's size and a desktop's, against a running
 * service with an embedded agent: every shot at full size and zoomable, a download per output, the error in
 * one sentence, the request as curl (run for real) and "run again".
 */
describe('dashboard screenshot page: full-size shots, downloads, error sentence, curl and run again, phone and desktop', function () {
  this.timeout(300_000);
  let api: TestApi;
  let site: TestSite;
  let browser: Browser;
  let key: string;
  let email: string;
  let finishedId = 0;
  let failedId = 0;
  let failed: Record<string, unknown>;
  let failedUrl: string;
  const consoleErrors: string[] = [];

  /** A logged-in page of its own context at this viewport. */
  async function openPage(viewport: { width: number; height: number }, extra: Parameters<Browser['newContext']>[0] = {}): Promise<{ context: BrowserContext; page: Page }> {
    const context = await browser.newContext({ viewport, ...extra });
    const page = await context.newPage();
    page.setDefaultTimeout(20_000);
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(`${msg.text()} (${msg.location().url})`);
    });
    page.on('pageerror', (err) => consoleErrors.push(`page error: ${err.message}`));
    await page.goto(`${api.plane.url}/#/login`);
    await page.getByLabel('Email', { exact: true }).fill(email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await page.getByRole('heading', { level: 1, name: 'Overview', exact: true }).waitFor();
    return { context, page };
  }

  /** Waits until every full-size shot on the page has decoded its image. */
  const shotsDecoded = (page: Page, count: number): Promise<unknown> =>
    page.waitForFunction(
      (n) => {
        const imgs = Array.from(document.querySelectorAll<HTMLImageElement>('img.full-shot'));
        return imgs.length === n && imgs.every((img) => img.complete && img.naturalWidth > 0);
      },
      count,
      { timeout: 60_000, polling: 200 },
    );

  /** How far the page itself scrolls sideways (0: it fits the viewport). */
  const pageOverflow = (page: Page): Promise<number> => page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);

  /** Creates a screenshot with the suite's key and waits until it has ended; its id. */
  let create: (query: string) => Promise<number>;

  before(async () => {
    site = await TestSite.start();
    api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_SIGNUP_CREDITS: '100' }, { agent: true });
    email = uniqueEmail('shotpage');
    key = (await signup(api, { email })).api_key.key;
    await verifyEmail(api, email);
    create = async (query: string): Promise<number> => {
      const res = await call(api.url, `/screenshot/create?${query}`, { key });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const id = res.body.data[0].id as number;
      let status = 'processing';
      for (let i = 0; i < 4 && status === 'processing'; i += 1) {
        const info = await call(api.url, `/screenshot/info?id=${id}&wait=30`, { key });
        expect(info.status, JSON.stringify(info.body)).to.equal(200);
        status = info.body.data.status as string;
      }
      expect(status).to.not.equal('processing');
      return id;
    };
    finishedId = await create(`url=${encodeURIComponent(site.url('/links.html'))}&shots=2&shot_interval=1&html=1&pdf=1&video=1&hide_popups=1&tag=first-hour`);
    failedUrl = `http://127.0.0.1:${await closedPort()}/gone`;
    failedId = await create(`url=${encodeURIComponent(failedUrl)}`);
    failed = (await call(api.url, `/screenshot/info?id=${failedId}`, { key })).body.data;
    expect(failed.status).to.equal('error');
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
  });
  after(async () => {
    await browser?.close();
    await api?.stop();
    await site?.close();
  });

  it('desktop: every shot fitted at first and pixel for pixel when zoomed; each output downloads with its own name and content', async () => {
    const { context, page } = await openPage(DESKTOP);
    try {
      await page.goto(`${api.plane.url}/#/screenshots/${finishedId}`);
      await page.getByRole('heading', { level: 1, name: `Screenshot ${finishedId}` }).waitFor();
      await shotsDecoded(page, 2);
      const sizes = await page.$$eval('img.full-shot', (imgs) =>
        (imgs as HTMLImageElement[]).map((i) => ({ natural: i.naturalWidth, shown: i.clientWidth, box: (i.parentElement as HTMLElement).clientWidth })),
      );
      for (const s of sizes) {
        expect(s.natural, 'the stored image, not a thumbnail').to.equal(1280);
        expect(s.shown, 'fitted to its box').to.be.at.most(s.box);
      }
      const first = page.getByRole('region', { name: 'Shot 1' });
      await page.getByRole('button', { name: 'Zoom to full size' }).first().click();
      expect(await page.getByRole('button', { name: 'Fit to screen' }).getAttribute('aria-pressed')).to.equal('true');
      const zoomed = await first.evaluate((box) => ({ shown: (box.querySelector('img') as HTMLImageElement).clientWidth, scrolls: box.scrollWidth > box.clientWidth }));
      expect(zoomed).to.deep.equal({ shown: 1280, scrolls: true });
      expect(await pageOverflow(page), 'the box scrolls, not the page').to.equal(0);
      await page.getByRole('button', { name: 'Fit to screen' }).click();

      const downloads: Record<string, string> = {};
      for (const label of ['Download image 1', 'Download image 2', 'Download HTML', 'Download PDF', 'Download video']) {
        const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: label, exact: true }).click()]);
        downloads[download.suggestedFilename()] = await download.path();
      }
      expect(Object.keys(downloads).sort()).to.deep.equal([
        `screenshot-${finishedId}-1.png`,
        `screenshot-${finishedId}-2.png`,
        `screenshot-${finishedId}.html`,
        `screenshot-${finishedId}.mp4`,
        `screenshot-${finishedId}.pdf`,
      ]);
      const head = (name: string, n: number): Buffer => fs.readFileSync(downloads[name] as string).subarray(0, n);
      expect(head(`screenshot-${finishedId}-1.png`, 8).toString('hex')).to.equal('89504e470d0a1a0a');
      expect(head(`screenshot-${finishedId}.pdf`, 5).toString()).to.equal('%PDF-');
      expect(fs.readFileSync(downloads[`screenshot-${finishedId}.html`] as string, 'utf8')).to.include('<a');
      expect(head(`screenshot-${finishedId}.mp4`, 12).subarray(4, 8).toString()).to.equal('ftyp');
    } finally {
      await context.close();
    }
  });

  it('desktop: "copy as curl" copies a command that, run in a shell with a key, creates the same screenshot; "run again" opens the new one', async () => {
    const { context, page } = await openPage(DESKTOP, { permissions: ['clipboard-read', 'clipboard-write'] });
    try {
      await page.goto(`${api.plane.url}/#/screenshots/${finishedId}`);
      const shown = await page.getByLabel('The request as a curl command').innerText();
      await page.getByRole('button', { name: 'Copy as curl' }).click();
      await page.getByText('Copied.').waitFor();
      const copied = await page.evaluate(() => navigator.clipboard.readText());
      expect(copied).to.equal(shown);
      expect(copied).to.match(/^curl -H "X-API-KEY: \$SHOTFARM_API_KEY" '/);
      expect(copied, 'the dashboard holds no key').to.not.include(key);

      const original = (await call(api.url, `/screenshot/info?id=${finishedId}`, { key })).body.data;
      const { stdout } = await run('sh', ['-c', copied], { env: { PATH: process.env.PATH ?? '', SHOTFARM_API_KEY: key } });
      const viaCurl = JSON.parse(stdout) as { success: boolean; data: Record<string, unknown>[] };
      expect(viaCurl.success, stdout).to.equal(true);
      expect(optionsOf(viaCurl.data[0] as Record<string, unknown>)).to.deep.equal(optionsOf(original));

      await page.getByRole('button', { name: 'Run again' }).click();
      await page.waitForURL((url) => /#\/screenshots\/\d+$/.test(url.hash) && url.hash !== `#/screenshots/${finishedId}`);
      const againId = Number(new URL(page.url()).hash.split('/').pop());
      await page.getByRole('heading', { level: 1, name: `Screenshot ${againId}` }).waitFor();
      expect(againId).to.be.greaterThan(Number(viaCurl.data[0]?.id));
      expect(optionsOf((await call(api.url, `/screenshot/info?id=${againId}`, { key })).body.data)).to.deep.equal(optionsOf(original));
    } finally {
      await context.close();
    }
  });

  it('"copy as curl" repeats the device_* options of a record without a catalogue device, and leaves them to a catalogue device', async () => {
    const [catalogued] = (await call(api.url, '/device/list', { key })).body.data as { device_name: string }[];
    const described = await create(`url=${encodeURIComponent(site.url('/target.html'))}&device_scale=2&device_mobile=1&device_landscape=1&screen_width=500&screen_height=400`);
    const named = await create(`url=${encodeURIComponent(site.url('/target.html'))}&device_name=${encodeURIComponent(catalogued!.device_name)}`);
    const { context, page } = await openPage(DESKTOP);
    try {
      const curlOf = async (id: number): Promise<URLSearchParams> => {
        await page.goto(`${api.plane.url}/#/screenshots/${id}`);
        await page.getByRole('heading', { level: 1, name: `Screenshot ${id}` }).waitFor();
        const command = await page.getByLabel('The request as a curl command').innerText();
        return new URL(/'([^']+)'$/.exec(command)![1]!).searchParams;
      };
      const ownDevice = await curlOf(described);
      expect([ownDevice.get('device_scale'), ownDevice.get('device_mobile'), ownDevice.get('device_landscape'), ownDevice.get('screen_width')]).to.deep.equal(['2', 'true', 'true', '500']);
      const fromCatalogue = await curlOf(named);
      expect(fromCatalogue.get('device_name')).to.equal(catalogued!.device_name);
      expect([...fromCatalogue.keys()].filter((name) => name.startsWith('device_'))).to.deep.equal(['device_name']);
    } finally {
      await context.close();
    }
  });

  it('phone (390×844): nothing spills sideways, shots fit the screen and zoom inside their box, the buttons are on screen', async () => {
    const { context, page } = await openPage(PHONE, { deviceScaleFactor: 3, isMobile: true, hasTouch: true });
    try {
      await page.goto(`${api.plane.url}/#/screenshots/${finishedId}`);
      await shotsDecoded(page, 2);
      expect(await pageOverflow(page)).to.equal(0);
      const boxes = await page.$$eval('img.full-shot', (imgs) => imgs.map((i) => i.getBoundingClientRect()).map((r) => ({ left: r.left, right: r.right })));
      for (const b of boxes) expect(b.left >= 0 && b.right <= PHONE.width, JSON.stringify(b)).to.equal(true);
      for (const name of ['Run again', 'Delete', 'Download image 1', 'Download video', 'Copy as curl']) {
        const button = page.getByRole('button', { name, exact: true });
        await button.scrollIntoViewIfNeeded();
        const r = await button.boundingBox();
        expect(r !== null && r.x >= 0 && r.x + r.width <= PHONE.width, `${name}: ${JSON.stringify(r)}`).to.equal(true);
      }
      await page.getByRole('button', { name: 'Zoom to full size' }).first().tap();
      expect(await page.getByRole('region', { name: 'Shot 1' }).evaluate((box) => box.scrollWidth > box.clientWidth)).to.equal(true);
      expect(await pageOverflow(page), 'zoomed, the box scrolls and the page does not').to.equal(0);
    } finally {
      await context.close();
    }
  });

  it('phone: a failed screenshot says what went wrong in one sentence, with the stored text one click away when it says more, and can be run again', async () => {
    const { context, page } = await openPage(PHONE, { deviceScaleFactor: 3, isMobile: true, hasTouch: true });
    try {
      await page.goto(`${api.plane.url}/#/screenshots/${failedId}`);
      const alert = page.getByRole('alert');
      const sentence = await alert.locator('p').innerText();
      // The agent words the failure itself (host and cause in one sentence, docs/api-clients.md "When there is no
      // page"): the page shows that sentence as it is. (Older records' browser codes are put in words: plain-error.ts.)
      expect(String(failed.error)).to.equal(`${new URL(failedUrl).host} refused the connection.`);
      expect(sentence).to.equal(String(failed.error));
      const details = alert.locator('details');
      if (sentence.replace(/\.$/, '') === String(failed.error).trim().replace(/\.$/, '')) expect(await details.count(), 'nothing more to say').to.equal(0);
      else {
        await details.locator('summary', { hasText: 'Full error text' }).tap();
        expect(await details.locator('pre').innerText()).to.equal(failed.error);
      }
      await page.getByText('No image was captured.').waitFor();
      expect(await pageOverflow(page)).to.equal(0);
      await page.getByRole('button', { name: 'Run again' }).tap();
      await page.waitForURL((url) => url.hash !== `#/screenshots/${failedId}` && /#\/screenshots\/\d+$/.test(url.hash));
    } finally {
      await context.close();
    }
  });

  it('logged no console errors and no page errors along the way', () => {
    expect(consoleErrors).to.deep.equal([]);
  });
});
