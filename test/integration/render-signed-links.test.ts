import { expect } from 'chai';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import sharp from 'sharp';
import { buildSignedQuery } from '../../api/auth/signed-links.js';
import { loadConfig } from '../../core/config/load-config.js';
import { launchChromium } from '../../drivers/playwright/launch-browser.js';
import { bearer, expectEnvelope, json } from '../support/auth-helpers.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';
import { repoPath } from '../support/repo-path.js';

/** The grace of a rotated secret in this suite: short, so that the test watches it end. */
const GRACE_SECONDS = 2;

/** The code blocks of docs/api-clients.md's "Render links" section, by language. */
function renderLinkRecipes(): Record<string, string> {
  const doc = readFileSync(repoPath('docs/api-clients.md'), 'utf8');
  const section = doc.slice(doc.indexOf('## Render links'), doc.indexOf('\n## ', doc.indexOf('## Render links') + 1));
  return Object.fromEntries([...section.matchAll(/```(\w+)\n([\s\S]*?)```/g)].map((m) => [m[1] as string, m[2] as string]));
}

/** GET a URL as an <img> or a CDN would: no credential, the status, headers and bytes (an error is JSON). */
async function get(url: string): Promise<{ status: number; headers: Headers; bytes: Buffer; body: any }> {
  const res = await fetch(url);
  const bytes = Buffer.from(await res.arrayBuffer());
  const isJson = (res.headers.get('content-type') ?? '').startsWith('application/json');
  return { status: res.status, headers: res.headers, bytes, body: isJson ? JSON.parse(bytes.toString('utf8')) : null };
}

/**
 * Signed render links (beyond-v1.md part 2) against the real components: an embedded farm with Chromium, the
 * test site's page holding <img src="<signed link>">, the ledger. Refused links (a changed parameter, another
 * key's access, a rotated secret after its grace, an expired link, a revoked key) create and charge nothing.
 */
describe('signed render links: <img src>, the cache at cost 0, refusals (pglite, chrome)', function () {
  this.timeout(300_000);
  let site: TestSite;
  let api: TestApi;
  let browser: Browser;
  let owner: TestAccount;
  let other: TestAccount;
  let ownerKeyId: number;
  let access: string;
  let secret: string;
  let otherAccess: string;
  let link: string;
  let params: string;

  const tally = async (companyId: number): Promise<{ records: number; ledger: number; balance: number }> => {
    const [records] = await api.database.db('screenshots').where({ company_id: companyId }).count('* as n');
    const [ledger] = await api.database.db('credit_ledger').where({ company_id: companyId }).count('* as n');
    const company = await api.database.db('companies').where({ id: companyId }).first('balance');
    return { records: Number(records?.n), ledger: Number(ledger?.n), balance: Number(company.balance) };
  };
  const linkOf = (query: string, withSecret = secret, withAccess = access, expires?: number): string => `${api.url}/screenshot/render?${buildSignedQuery(withAccess, query, withSecret, expires)}`;
  const rotate = async (account: TestAccount, id: number): Promise<any> => (await call(api.url, '/key/rotate-signing-secret', json({ id }, { 'X-API-KEY': account.key }))).body.data;
  const keyIdOf = async (account: TestAccount): Promise<number> => (await call(api.url, '/key/list', { key: account.key })).body.data[0].id;

  before(async function () {
    site = await TestSite.start();
    api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_SIGNING_SECRET_GRACE_SECONDS: String(GRACE_SECONDS) }, { agent: true });
    browser = await launchChromium(loadConfig({}).agent.chromiumPath);
    owner = await api.account(1000);
    other = await api.account(1000);
    // Keys made before signed links (as these are) get their first secret by rotating.
    ownerKeyId = await keyIdOf(owner);
    ({ access, signing_secret: secret } = await rotate(owner, ownerKeyId));
    otherAccess = (await rotate(other, await keyIdOf(other))).access;
    params = `url=${encodeURIComponent(site.url('/echo?signed=img'))}&screen_width=800&screen_height=600`;
    link = linkOf(params);
  });
  after(async function () {
    await browser?.close();
    await api?.stop();
    await site?.close();
  });

  it('a page of the test site shows the signed link in an <img>: Chromium decodes it at the captured size; the link again is the cache at cost 0, public for a CDN', async function () {
    const before = await tally(owner.companyId);
    const page = await browser.newPage();
    try {
      await page.goto(site.url(`/img-page?src=${encodeURIComponent(link)}`));
      const size = await page.waitForFunction(
        () => {
          const img = document.getElementById('img') as HTMLImageElement;
          return img.complete && img.naturalWidth > 0 ? { width: img.naturalWidth, height: img.naturalHeight } : null;
        },
        null,
        { timeout: 180_000, polling: 250 },
      );
      expect(await size.jsonValue()).to.deep.equal({ width: 800, height: 600 });
    } finally {
      await page.close();
    }
    const first = await tally(owner.companyId);
    expect(first.records).to.equal(before.records + 1);
    const [row] = await api.database.db('screenshots').where({ company_id: owner.companyId }).orderBy('id', 'desc').limit(1).select('id');
    const made = (await call(api.url, `/screenshot/info?id=${row.id}`, { key: owner.key })).body.data;
    expect(made).to.include({ status: 'finished', cache: 86400 });
    expect(Number(made.cost)).to.be.above(0);
    expect(first.balance).to.equal(before.balance - Number(made.cost));

    // The same link again (a CDN's or another reader's request): the stored bytes from the record cache, cost 0.
    const again = await get(link);
    expect(again.status, again.bytes.toString()).to.equal(200);
    expect(again.headers.get('cache-control')).to.equal('public, max-age=86400');
    expect(again.headers.get('content-type')).to.equal('image/png');
    expect(await sharp(again.bytes).metadata()).to.include({ width: 800, height: 600 });
    const hitId = Number(again.headers.get('x-screenshot-id'));
    expect(hitId).to.be.above(Number(made.id));
    const hit = (await call(api.url, `/screenshot/info?id=${hitId}`, { key: owner.key })).body.data;
    expect(hit.cost).to.equal(0);
    expect(await api.database.db('credit_ledger').where({ screenshot_id: hitId })).to.deep.equal([]);
    expect((await tally(owner.companyId)).balance).to.equal(first.balance);
  });

  it('refuses a changed parameter, another key’s access, a missing or misplaced signature and an expired link, creating and charging nothing', async function () {
    const before = await tally(owner.companyId);
    const otherBefore = await tally(other.companyId);
    expectEnvelope(await get(link.replace('screen_width=800', 'screen_width=801')), 403, 'INVALID_SIGNATURE');
    expectEnvelope(await get(`${link.replace(/&signature=.*$/, '')}&width=100${link.slice(link.indexOf('&signature='))}`), 403, 'INVALID_SIGNATURE');
    expectEnvelope(await get(linkOf(params, secret, otherAccess)), 403, 'INVALID_SIGNATURE');
    expectEnvelope(await get(link.replace(/&signature=.*$/, '')), 403, 'INVALID_SIGNATURE');
    expectEnvelope(await get(`${link}&width=100`), 403, 'INVALID_SIGNATURE');
    expectEnvelope(await get(link.replace(/signature=([0-9a-f]+)$/, (_m, hex: string) => `signature=${hex.toUpperCase()}`)), 403, 'INVALID_SIGNATURE');
    const expired = await get(linkOf(params, secret, access, Math.floor(Date.now() / 1000) - 10));
    expect(expectEnvelope(expired, 410, 'LINK_EXPIRED').error).to.match(/expired at/);
    // An expiry that is not over yet is covered by the signature: changing it is a 403, not a longer life.
    const later = linkOf(params, secret, access, Math.floor(Date.now() / 1000) + 3600);
    expectEnvelope(await get(later.replace(/expires=\d+/, 'expires=9999999999')), 403, 'INVALID_SIGNATURE');
    // A signed link carries no API key.
    expectEnvelope(await get(linkOf(`${params}&key=${encodeURIComponent(owner.key)}`)), 400, 'VALIDATION_ERROR');
    expect(await tally(owner.companyId)).to.deep.equal(before);
    expect(await tally(other.companyId)).to.deep.equal(otherBefore);
  });

  it('a rotated secret signs through its grace period, then is refused; a revoked key’s link is a 401; nothing is made by a refusal', async function () {
    const old = link;
    const rotated = await rotate(owner, ownerKeyId);
    // Within the grace: the old link still works (a cache hit: a record at cost 0).
    const within = await get(old);
    expect(within.status, within.bytes.toString()).to.equal(200);
    await new Promise((resolve) => setTimeout(resolve, GRACE_SECONDS * 1000 + 500));
    const before = await tally(owner.companyId);
    expectEnvelope(await get(old), 403, 'INVALID_SIGNATURE');
    expect(await tally(owner.companyId)).to.deep.equal(before);
    secret = rotated.signing_secret;
    const fresh = await get(linkOf(params, secret));
    expect(fresh.status, fresh.bytes.toString()).to.equal(200);

    // A key deleted after signing: its links answer 401, and make nothing.
    const token = await api.userToken(owner.companyId);
    const doomed = (await call(api.url, '/key/create', json({ name: 'doomed' }, bearer(token)))).body.data;
    const doomedLink = linkOf(params, doomed.signing_secret, doomed.access);
    expect((await call(api.url, '/key/delete', json({ id: doomed.id }, bearer(token)))).status).to.equal(200);
    const beforeRevoked = await tally(owner.companyId);
    expectEnvelope(await get(doomedLink), 401, 'INVALID_API_KEY');
    expect(await tally(owner.companyId)).to.deep.equal(beforeRevoked);
  });

  it("docs/api-clients.md's shell, JavaScript and Python recipes make links the service answers", async function () {
    const recipes = renderLinkRecipes();
    expect(Object.keys(recipes)).to.include.members(['sh', 'js', 'python', 'html']);
    const target = site.url('/echo?signed=recipe');
    // The recipes as written, with this service, this key and the test site's page in place of the examples.
    const filled = (code: string): string =>
      code
        .replaceAll('https://shots.example.com/api/v1', api.url)
        .replaceAll('ak_…', access)
        .replaceAll('ss_…', secret)
        .replaceAll('https%3A%2F%2Fexample.com%2F', encodeURIComponent(target))
        .replaceAll('https://example.com/', target);
    const env = { PATH: process.env.PATH ?? '' };
    const links = {
      sh: execFileSync('sh', ['-euc', filled(recipes.sh as string)], { env })
        .toString()
        .trim(),
      js: execFileSync(process.execPath, ['--input-type=module', '-e', filled(recipes.js as string)], { env })
        .toString()
        .trim(),
      python: execFileSync('python3', ['-c', filled(recipes.python as string)], { env })
        .toString()
        .trim(),
    };
    for (const [language, url] of Object.entries(links)) {
      expect(url, language).to.match(new RegExp(`^${api.url}/screenshot/render\\?access=${access}&url=[^&]+&width=640&expires=\\d+&signature=[0-9a-f]{64}$`));
      const res = await get(url);
      expect(res.status, `${language}: ${res.bytes.toString()}`).to.equal(200);
      expect(res.headers.get('cache-control'), language).to.equal('public, max-age=86400');
      expect((await sharp(res.bytes).metadata()).width, language).to.equal(640);
    }
  });
});
