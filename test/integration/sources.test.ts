import { createHash } from 'node:crypto';
import { expect } from 'chai';
import sharp from 'sharp';
import { TestSite } from '../support/test-site.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';

/**
 * Sources (issue #27 point 3, beyond-v1.md part 3): source_html and source_markdown render instead of a url,
 * in an opaque origin, with their subresources fetched from the (local) test site; the record's url is
 * source:<kind>/<sha256>, GET /screenshot/source answers the text as sent, and the limits are settings.
 */
const BROWSERS = ['chrome', 'firefox', 'brave'] as const;
/** This suite's body limit: small, so that the 413 is tested without sending megabytes. */
const BODY_LIMIT = 100_000;

const sha256 = (text: string): string => createHash('sha256').update(text, 'utf8').digest('hex');

/**
 * An invoice: a web font and a logo from the test site, a table, and a script that writes what the document
 * sees (its origin, whether the font loaded, the logo's decoded width) where trackers read it.
 */
function invoice(site: TestSite, fontPath: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>Invoice 2026-0042</title>
<style>
@font-face { font-family: "InvoiceFont"; src: url("${site.url(fontPath)}") format("truetype"); }
body { margin: 32px; font: 22px "InvoiceFont", monospace; color: #222; }
table { border-collapse: collapse; width: 100%; } td, th { border: 1px solid #999; padding: 6px 10px; text-align: left; }
.total { font-size: 40px; }
</style></head><body>
<img id="logo" src="${site.url('/tile.png?color=2060c0')}" width="64" height="64" alt="logo">
<h1>Invoice 2026-0042</h1>
<table><tr><th>Item</th><th>Qty</th><th>Price</th></tr><tr><td>Screenshots</td><td>1000</td><td>EUR 49.00</td></tr><tr><td>Sources</td><td>200</td><td>EUR 9.80</td></tr></table>
<p class="total">Total: EUR 58.80 ÄÖÜ — ✓</p>
<p>origin <span id="origin">?</span> font <span id="font">?</span> logo <span id="logo-width">?</span></p>
<script>
document.getElementById('origin').textContent = String(self.origin);
var font = document.fonts.load('22px InvoiceFont').then(function (f) { document.getElementById('font').textContent = f.length > 0 ? 'loaded' : 'missing'; }, function () { document.getElementById('font').textContent = 'failed'; });
var logo = document.getElementById('logo');
var image = new Promise(function (resolve) { if (logo.complete) resolve(); else { logo.addEventListener('load', resolve); logo.addEventListener('error', resolve); } }).then(function () { document.getElementById('logo-width').textContent = String(logo.naturalWidth); });
// Once both are known: the request waits for it (wait_for), however slow the machine.
Promise.all([font, image]).then(function () { var r = document.createElement('p'); r.id = 'ready'; r.textContent = 'ready'; document.body.appendChild(r); });
</script></body></html>`;
}

const TRACKERS = JSON.stringify(['origin', 'font', 'logo-width'].map((id) => ({ id, selector: `#${id}` })));

/** The trackers' values of a finished record, by id. */
function tracked(record: Record<string, any>): Record<string, string> {
  return Object.fromEntries((record.trackers as { id: string; return: { value?: string }[] }[]).map((t) => [t.id, t.return[0]?.value ?? '']));
}

async function createFromBody(api: TestApi, key: string, body: Record<string, unknown>): Promise<{ status: number; body: any }> {
  return call(api.url, '/screenshot/create', { key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function waitFor(api: TestApi, key: string, id: number): Promise<Record<string, any>> {
  const started = Date.now();
  for (;;) {
    const info = await call(api.url, `/screenshot/info?id=${id}&wait=30`, { key });
    if (info.body.data.status !== 'processing') return info.body.data;
    if (Date.now() - started > 200_000) throw new Error(`record ${id} is still processing`);
  }
}

async function image(api: TestApi, key: string, id: number): Promise<Buffer> {
  const res = await fetch(`${api.url}/screenshot/thumbnail?id=${id}`, { headers: { 'X-API-KEY': key } });
  expect(res.status).to.equal(200);
  return Buffer.from(await res.arrayBuffer());
}

describe('sources: source_html and source_markdown (issue #27 point 3)', function () {
  this.timeout(400_000);
  let site: TestSite;
  let api: TestApi;
  let account: TestAccount;

  before(async () => {
    site = await TestSite.start();
    api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: BROWSERS.join(','), SHOTFARM_SOURCE_BODY_MAX_BYTES: String(BODY_LIMIT) }, { agent: true });
    account = await api.account(1000);
  });
  after(async () => {
    await api?.stop();
    await site?.close();
  });

  it('renders an invoice with a web font and an image of the test site in an opaque origin, in chrome, firefox and brave; the record url is source:html/<sha256>', async () => {
    const html = invoice(site, '/font.ttf');
    const created = await Promise.all(
      BROWSERS.map((browser) => createFromBody(api, account.key, { source_html: html, browser, trackers: TRACKERS, screen_width: 900, screen_height: 700, wait_for: '#ready', wait_strict: true })),
    );
    for (const c of created) expect(c.status, JSON.stringify(c.body)).to.equal(200);
    for (const [i, browser] of BROWSERS.entries()) {
      const record = await waitFor(api, account.key, Number(created[i]?.body.data[0].id));
      expect(record.status, `${browser}: ${JSON.stringify(record)}`).to.equal('finished');
      expect(record.url).to.equal(`source:html/${sha256(html)}`);
      expect(record.final_url).to.equal(record.url);
      expect(tracked(record), browser).to.deep.equal({ origin: 'null', font: 'loaded', 'logo-width': '64' });
      // The logo decoded: its blue is in the image where the page put it.
      const { data, info } = await sharp(await image(api, account.key, record.id))
        .raw()
        .toBuffer({ resolveWithObject: true });
      const at = (32 + 32) * info.width * info.channels + (32 + 32) * info.channels;
      expect([data[at], data[at + 1], data[at + 2]], `${browser}: the logo's colour`).to.deep.equal([0x20, 0x60, 0xc0]);
    }
  });

  it('the web font is what the text is drawn in: the same invoice with a font that does not load is drawn differently (chrome)', async () => {
    const withFont = invoice(site, '/font.ttf');
    const fallback = invoice(site, '/missing-font.ttf');
    const [a, b] = await Promise.all(
      [withFont, fallback].map((source_html) => createFromBody(api, account.key, { source_html, trackers: TRACKERS, screen_width: 900, screen_height: 700, wait_for: '#ready', wait_strict: true })),
    );
    const recordA = await waitFor(api, account.key, Number(a?.body.data[0].id));
    const recordB = await waitFor(api, account.key, Number(b?.body.data[0].id));
    expect(tracked(recordA).font).to.equal('loaded');
    expect(tracked(recordB).font).to.not.equal('loaded');
    const [pixelsA, pixelsB] = await Promise.all(
      [recordA, recordB].map(async (r) =>
        sharp(await image(api, account.key, r.id))
          .raw()
          .toBuffer(),
      ),
    );
    let differing = 0;
    for (let i = 0; i < Math.min(pixelsA!.length, pixelsB!.length); i += 3) if (pixelsA![i] !== pixelsB![i]) differing++;
    expect(differing, 'pixels that differ between the web font and the fallback').to.be.greaterThan(1000);
  });

  it('renders source_markdown with marked and the default stylesheet; GET /screenshot/source answers it as sent, to its own account only', async () => {
    const markdown = '# Release notes\n\n| feature | state |\n|---|---|\n| sources | done |\n\n- [x] markdown\n- [ ] more\n\n`code` and **bold** — ünïcødé\n';
    const res = await call(api.url, `/screenshot/create?${new URLSearchParams({ source_markdown: markdown, html: 'true' })}`, { key: account.key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const record = await waitFor(api, account.key, Number(res.body.data[0].id));
    expect(record.status, JSON.stringify(record)).to.equal('finished');
    expect(record.url).to.equal(`source:markdown/${sha256(markdown)}`);
    const rendered = await call(api.url, `/screenshot/html?id=${record.id}&view=text`, { key: account.key });
    expect(rendered.body).to.match(/<h1[^>]*>Release notes<\/h1>/);
    expect(rendered.body).to.match(/<table>[\s\S]*<td>sources<\/td>/);
    expect(rendered.body).to.include('<code>code</code>');

    const source = await fetch(`${api.url}/screenshot/source?id=${record.id}`, { headers: { 'X-API-KEY': account.key } });
    expect(source.status).to.equal(200);
    expect(source.headers.get('content-type')).to.equal('text/markdown; charset=utf-8');
    expect(await source.text()).to.equal(markdown);

    const other = await api.account(10);
    expect((await call(api.url, `/screenshot/source?id=${record.id}`, { key: other.key })).status).to.equal(404);
  });

  it('GET /screenshot/source answers source_html as text/html; a record of a url has no source (404)', async () => {
    const html = '<!doctype html><p>tiny ✓</p>';
    const res = await call(api.url, `/screenshot/create?${new URLSearchParams({ source_html: html })}`, { key: account.key });
    const id = Number(res.body.data[0].id);
    const source = await fetch(`${api.url}/screenshot/source?id=${id}`, { headers: { 'X-API-KEY': account.key } });
    expect(source.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(await source.text()).to.equal(html);
    await waitFor(api, account.key, id);
    const page = await call(api.url, `/screenshot/create?${new URLSearchParams({ url: site.url('/echo') })}`, { key: account.key });
    const none = await call(api.url, `/screenshot/source?id=${page.body.data[0].id}`, { key: account.key });
    expect(none.status).to.equal(404);
    expect(none.body.success).to.equal(false);
    await waitFor(api, account.key, Number(page.body.data[0].id));
  });

  it('base_url resolves the relative links of a source', async () => {
    const html = `<!doctype html><img id="logo" src="tile.png?color=20c060" width="64" height="64"><span id="logo-width"></span>
<script>var l = document.getElementById('logo'); l.onload = l.onerror = function () { document.getElementById('logo-width').textContent = String(l.naturalWidth); };</script>`;
    const res = await createFromBody(api, account.key, {
      source_html: html,
      base_url: site.url('/'),
      trackers: JSON.stringify([{ id: 'w', selector: '#logo-width' }]),
      wait_for: '#logo-width:not(:empty)',
      wait_strict: true,
    });
    const record = await waitFor(api, account.key, Number(res.body.data[0].id));
    expect(record.base_url).to.equal(site.url('/'));
    expect(tracked(record).w).to.equal('64');
    expect(site.hits('/tile.png?color=20c060')).to.equal(1);
  });

  it('exactly one of url, source_html and source_markdown; base_url, post_data and cookie only where they apply (400, nothing created)', async () => {
    const before = await api.database.db('screenshots').count<{ n: string }[]>({ n: '*' });
    const cases: [Record<string, string>, string][] = [
      [{ url: site.url('/echo'), source_html: '<p>x</p>' }, 'source_html'],
      [{ source_html: '<p>x</p>', source_markdown: '# x' }, 'source_markdown'],
      [{ browser: 'chrome' }, 'url'],
      [{ url: site.url('/echo'), base_url: site.url('/') }, 'base_url'],
      [{ source_html: '<p>x</p>', post_data: 'a=1' }, 'post_data'],
      [{ source_html: '<p>x</p>', cookie: 'a=1' }, 'cookie'],
      [{ source_html: '   ' }, 'source_html'],
      [{ source_html: '<p>x</p>', base_url: 'ftp://example.test/' }, 'base_url'],
    ];
    for (const [query, field] of cases) {
      const res = await call(api.url, `/screenshot/create?${new URLSearchParams(query)}`, { key: account.key });
      expect(res.status, JSON.stringify(query)).to.equal(400);
      expect(res.body.code).to.equal('VALIDATION_ERROR');
      expect(res.body.fields, JSON.stringify(res.body)).to.have.property(field);
    }
    const after = await api.database.db('screenshots').count<{ n: string }[]>({ n: '*' });
    expect(Number(after[0]?.n)).to.equal(Number(before[0]?.n));
  });

  it('a source over the limits is a 413 in the envelope naming the setting; at the limit it is taken (query 64 KiB, body the setting)', async () => {
    const count = async (): Promise<number> => Number((await api.database.db('screenshots').count<{ n: string }[]>({ n: '*' }))[0]?.n);
    const before = await count();
    const atQueryLimit = `<p>${'a'.repeat(65_536 - 7)}</p>`;
    const overQuery = await call(api.url, `/screenshot/create?${new URLSearchParams({ source_html: `${atQueryLimit}b` })}`, { key: account.key });
    expect(overQuery.status).to.equal(413);
    expect(overQuery.body).to.include({ success: false, code: 'PAYLOAD_TOO_LARGE' });
    expect(overQuery.body.error).to.include('SHOTFARM_SOURCE_QUERY_MAX_BYTES').and.include('65536 bytes');
    // Bytes, not characters: 'é' is two bytes in UTF-8.
    const overInBytes = await call(api.url, `/screenshot/create?${new URLSearchParams({ source_markdown: 'é'.repeat(32_769) })}`, { key: account.key });
    expect(overInBytes.status).to.equal(413);

    const overBody = await createFromBody(api, account.key, { source_markdown: 'x'.repeat(BODY_LIMIT + 1) });
    expect(overBody.status).to.equal(413);
    expect(overBody.body.error).to.include('SHOTFARM_SOURCE_BODY_MAX_BYTES');
    const overForm = await call(api.url, '/screenshot/create', {
      key: account.key,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ source_html: 'x'.repeat(BODY_LIMIT + 1) }).toString(),
    });
    expect(overForm.status).to.equal(413);
    // Far over even the parser's bound: the same envelope and setting.
    const huge = await createFromBody(api, account.key, { source_html: 'x'.repeat(BODY_LIMIT * 4 + 2 * 1024 * 1024) });
    expect(huge.status).to.equal(413);
    expect(huge.body.error).to.include('SHOTFARM_SOURCE_BODY_MAX_BYTES');
    expect(await count()).to.equal(before);

    const ids: number[] = [];
    const atQuery = await call(api.url, `/screenshot/create?${new URLSearchParams({ source_html: atQueryLimit })}`, { key: account.key });
    expect(atQuery.status, JSON.stringify(atQuery.body).slice(0, 300)).to.equal(200);
    ids.push(Number(atQuery.body.data[0].id));
    const form = await call(api.url, '/screenshot/create', {
      key: account.key,
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ source_html: `<p>${'y'.repeat(BODY_LIMIT - 7)}</p>` }).toString(),
    });
    expect(form.status, JSON.stringify(form.body).slice(0, 300)).to.equal(200);
    expect(form.body.data[0].url).to.equal(`source:html/${sha256(`<p>${'y'.repeat(BODY_LIMIT - 7)}</p>`)}`);
    ids.push(Number(form.body.data[0].id));
    for (const id of ids) expect((await waitFor(api, account.key, id)).status).to.equal('finished');
  });

  it('a monitor of a source: its url is source:html/<sha256>, a run renders the source; an update to a url replaces the source', async () => {
    const html = '<!doctype html><h1>status: all good</h1>';
    const post = (path: string, body: Record<string, unknown>) =>
      call(api.url, path, { key: account.key, method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
    const created = await post('/monitor/create', { source_html: html, interval: 600 });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    expect(created.body.data.url).to.equal(`source:html/${sha256(html)}`);
    const run = await post('/monitor/run', { id: created.body.data.id });
    expect(run.status, JSON.stringify(run.body)).to.equal(200);
    const record = await waitFor(api, account.key, Number(run.body.data.screenshot_id));
    expect(record.status, JSON.stringify(record)).to.equal('finished');
    expect(record.url).to.equal(created.body.data.url);
    const source = await fetch(`${api.url}/screenshot/source?id=${record.id}`, { headers: { 'X-API-KEY': account.key } });
    expect(await source.text()).to.equal(html);

    const both = await post('/monitor/create', { source_html: html, url: site.url('/echo'), interval: 600 });
    expect(both.status).to.equal(400);
    expect(both.body.fields).to.have.keys('url', 'source_html');
    const neither = await post('/monitor/create', { interval: 600 });
    expect(neither.status).to.equal(400);
    expect(neither.body.fields).to.have.property('url');

    const moved = await post('/monitor/update', { id: created.body.data.id, url: site.url('/echo') });
    expect(moved.status, JSON.stringify(moved.body)).to.equal(200);
    expect(moved.body.data.url).to.equal(site.url('/echo'));
    const back = await post('/monitor/update', { id: created.body.data.id, source_markdown: '# back' });
    expect(back.status, JSON.stringify(back.body)).to.equal(200);
    expect(back.body.data.url).to.equal(`source:markdown/${sha256('# back')}`);
  });

  it('the source joins the cache key: the same source is answered from the cache, another one is captured', async () => {
    const first = await createFromBody(api, account.key, { source_html: '<p>cached ✓</p>', cache: 3600 });
    const firstRecord = await waitFor(api, account.key, Number(first.body.data[0].id));
    expect(firstRecord.status).to.equal('finished');
    const again = await createFromBody(api, account.key, { source_html: '<p>cached ✓</p>', cache: 3600 });
    expect(again.body.data[0].status, 'the same source').to.equal('finished');
    expect(again.body.data[0].cost).to.equal(0);
    const other = await createFromBody(api, account.key, { source_html: '<p>cached ✗</p>', cache: 3600 });
    expect(other.body.data[0].status, 'another source').to.equal('processing');
    await waitFor(api, account.key, Number(other.body.data[0].id));
  });
});
