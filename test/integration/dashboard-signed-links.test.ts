import { expect } from 'chai';
import { chromium, type Browser, type Page } from 'playwright-core';
import sharp from 'sharp';
import { splitSignedQuery, signatureMatches } from '../../api/auth/signed-links.js';
import { PASSWORD, json, signup, verifyEmail } from '../support/auth-helpers.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';

/** Debian's Chromium: browsers cannot be downloaded here. */
const CHROMIUM = '/usr/lib/chromium/chromium';
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'];

/**
 * The dashboard's part of signed render links (beyond-v1.md part 2), in a real Chromium against the running
 * service with an embedded agent: the keys page shows each key's access and rotates its signing secret (shown
 * once), and the create form's "Copy as signed link" answers a link the service renders.
 */
describe('web dashboard: access ids, signing secrets and "Copy as signed link"', function () {
  this.timeout(180_000);
  let api: TestApi;
  let site: TestSite;
  let browser: Browser;
  let page: Page;
  let base: string;
  let made: Awaited<ReturnType<typeof signup>>;
  const consoleErrors: string[] = [];
  const heading = (name: string) => page.getByRole('heading', { level: 1, name, exact: true });
  const nav = (name: string) => page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name, exact: true });

  before(async () => {
    site = await TestSite.start();
    api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_SIGNUP_CREDITS: '100' }, { agent: true });
    base = api.plane.url;
    made = await signup(api);
    await verifyEmail(api, made.user.email);
    browser = await chromium.launch({ executablePath: CHROMIUM, args: CHROMIUM_ARGS });
    page = await (await browser.newContext()).newPage();
    page.setDefaultTimeout(20_000);
    page.on('pageerror', (err) => consoleErrors.push(`page error: ${err.message}`));
    await page.goto(`${base}/`);
    await heading('Log in').waitFor();
    await page.getByLabel('Email', { exact: true }).fill(made.user.email);
    await page.getByLabel('Password', { exact: true }).fill(PASSWORD);
    await page.getByRole('button', { name: 'Log in' }).click();
    await heading('Overview').waitFor();
  });
  after(async () => {
    await browser?.close();
    await api?.stop();
    await site?.close();
  });

  it("the keys page shows each key's access and makes or rotates its signing secret, shown once", async () => {
    const [signupKey] = (await call(api.url, '/key/list', { key: made.api_key.key })).body.data;
    await nav('API keys').click();
    await heading('API keys').waitFor();
    await page.getByRole('cell', { name: signupKey.access, exact: true }).waitFor();
    // The signup key has no secret yet: the button makes its first.
    await page.getByRole('button', { name: 'Make signing secret' }).click();
    await page.locator('.notice').getByText('New signing secret').waitFor();
    const first = await page.locator('.notice code.secret').innerText();
    expect(first).to.match(/^ss_[\w-]{43}$/);
    const row = await api.database.db('api_keys').where({ id: signupKey.id }).first('signing_secret');
    expect(row.signing_secret).to.match(/^enc:v1:/);
    // Rotating again: another secret, and the notice says until when the previous one signs.
    await page.getByRole('button', { name: 'Rotate signing secret' }).click();
    await page.locator('.notice').getByText('keeps signing until').waitFor();
    expect(await page.locator('.notice code.secret').innerText())
      .to.match(/^ss_/)
      .and.not.equal(first);
    // A new key's notice shows the key and its signing secret.
    await page.getByLabel('Key name').fill('links');
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.locator('.notice').getByText('with its signing secret').waitFor();
    const shown = await page.locator('.notice code.secret').allInnerTexts();
    expect(shown).to.have.length(2);
    expect(shown[0]).to.match(/^sf_/);
    expect(shown[1]).to.match(/^ss_/);
  });

  it('the create form copies a signed render link of its options, which the service renders without a key', async () => {
    const keys = (await call(api.url, '/key/list', { key: made.api_key.key })).body.data;
    const links = keys.find((k: any) => k.name === 'links');
    // The secret to check the link with: a fresh rotation through the API (the page never holds one).
    const secret = (await call(api.url, '/key/rotate-signing-secret', json({ id: links.id }, { 'X-API-KEY': made.api_key.key }))).body.data.signing_secret;
    await nav('New screenshot').click();
    await heading('New screenshot').waitFor();
    await page.getByLabel('URLs', { exact: true }).fill(site.url('/echo?dashboard=signed'));
    await page.getByLabel('Signing key').selectOption(String(links.id));
    await page.getByRole('button', { name: 'Copy as signed link' }).click();
    const box = page.getByLabel('Signed link', { exact: true });
    await page.waitForFunction(() => (document.querySelector<HTMLInputElement>('input.signed-link')?.value ?? '') !== '');
    const url = await box.inputValue();
    expect(url.startsWith(`${api.url}/screenshot/render?access=${links.access}&url=`)).to.equal(true);
    expect(url).to.not.include(made.api_key.key);
    const split = splitSignedQuery(new URL(url).search.slice(1));
    expect(split && signatureMatches(split.signed, split.signature, [secret])).to.equal(true);
    const res = await fetch(url);
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.status, bytes.toString()).to.equal(200);
    expect(res.headers.get('cache-control')).to.equal('public, max-age=86400');
    expect((await sharp(bytes).metadata()).format).to.equal('png');
    expect(consoleErrors).to.deep.equal([]);
  });
});
