import { expect } from 'chai';
import net from 'node:net';
import sharp from 'sharp';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';

/** GET a render: the status, the headers and the raw bytes (an image is not JSON). */
async function renderOf(api: TestApi, key: string, query: string, headers: Record<string, string> = {}): Promise<{ status: number; headers: Headers; bytes: Buffer; json: any }> {
  const res = await fetch(`${api.url}/screenshot/render?${query}`, { headers: { 'X-API-KEY': key, ...headers } });
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: any = null;
  if ((res.headers.get('content-type') ?? '').startsWith('application/json')) json = JSON.parse(bytes.toString('utf8'));
  return { status: res.status, headers: res.headers, bytes, json };
}

/** A loopback port where nothing listens: a host that refuses the connection. */
async function refusedUrl(): Promise<string> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/`;
}

/**
 * GET|POST /screenshot/render (beyond-v1.md part 1) on an embedded farm with a real Chromium: the bytes of
 * each format at the captured size, a cache hit and a 304 at cost 0 (the ledger says so), a failing host
 * as 422 with its cause at cost 0, and a render past its timeout as 504 whose record still finishes.
 */
describe('render: one request, the bytes back (pglite, chrome)', function () {
  this.timeout(300_000);
  let site: TestSite;
  let api: TestApi;
  let account: TestAccount;
  const page = (): string => encodeURIComponent(site.url(`/echo?render=${Math.random().toString(36).slice(2)}`));
  const ledgerOf = async (id: number): Promise<unknown[]> => api.database.db('credit_ledger').where({ screenshot_id: id });
  const recordOf = async (id: number): Promise<any> => (await call(api.url, `/screenshot/info?id=${id}`, { key: account.key })).body.data;

  before(async function () {
    site = await TestSite.start();
    api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: 'chrome' }, { agent: true });
    account = await api.account(1000);
  });
  after(async function () {
    await api?.stop();
    await site?.close();
  });

  it('answers a PNG of the viewport with its headers, and the render is a record info reads', async function () {
    const res = await renderOf(api, account.key, `url=${page()}&screen_width=800&screen_height=600`);
    expect(res.status, res.bytes.toString()).to.equal(200);
    expect(res.headers.get('content-type')).to.equal('image/png');
    expect(Number(res.headers.get('content-length'))).to.equal(res.bytes.length);
    expect(res.headers.get('cache-control')).to.equal('private');
    expect(res.headers.get('etag')).to.match(/^"[\w-]{27}"$/);
    expect(Number(res.headers.get('x-render-ms')))
      .to.be.a('number')
      .and.above(0);
    const id = Number(res.headers.get('x-screenshot-id'));
    expect(res.headers.get('content-disposition')).to.equal(`inline; filename="screenshot-${id}.png"`);
    const meta = await sharp(res.bytes).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).to.deep.equal({ format: 'png', width: 800, height: 600 });
    const record = await recordOf(id);
    expect(record).to.include({ id, status: 'finished' });
    expect(record.cost).to.be.above(0);
  });

  for (const [format, type, decoded] of [
    ['jpeg', 'image/jpeg', 'jpeg'],
    ['webp', 'image/webp', 'webp'],
    ['avif', 'image/avif', 'heif'],
  ] as const) {
    it(`answers format=${format} as ${type} at the captured size`, async function () {
      const res = await renderOf(api, account.key, `url=${page()}&screen_width=640&screen_height=480&format=${format}&quality=70`);
      expect(res.status, res.bytes.toString()).to.equal(200);
      expect(res.headers.get('content-type')).to.equal(type);
      const meta = await sharp(res.bytes).metadata();
      expect({ format: meta.format, width: meta.width, height: meta.height }).to.deep.equal({ format: decoded, width: 640, height: 480 });
    });
  }

  it('resizes with the thumbnail parameters (width keeps the aspect ratio)', async function () {
    const res = await renderOf(api, account.key, `url=${page()}&screen_width=800&screen_height=600&width=200`);
    expect(res.status, res.bytes.toString()).to.equal(200);
    const meta = await sharp(res.bytes).metadata();
    expect({ width: meta.width, height: meta.height }).to.deep.equal({ width: 200, height: 150 });
  });

  it('answers format=pdf, html and json from the same record kinds', async function () {
    const pdf = await renderOf(api, account.key, `url=${page()}&format=pdf`);
    expect(pdf.status, pdf.bytes.toString()).to.equal(200);
    expect(pdf.headers.get('content-type')).to.equal('application/pdf');
    expect(pdf.bytes.subarray(0, 5).toString()).to.equal('%PDF-');
    const html = await renderOf(api, account.key, `url=${page()}&format=html`);
    expect(html.status).to.equal(200);
    expect(html.headers.get('content-type')).to.equal('text/html; charset=utf-8');
    expect(html.bytes.toString()).to.include('id="echo"');
    const json = await renderOf(api, account.key, `url=${page()}&format=json`);
    expect(json.status).to.equal(200);
    expect(json.json).to.deep.include({ success: true });
    expect(json.json.data).to.include({ id: Number(json.headers.get('x-screenshot-id')), status: 'finished' });
  });

  it('answers format=markdown as text/markdown, and format=json with the metadata and the Markdown text asked for', async function () {
    const article = encodeURIComponent(site.url(`/extract/article.html?render=${Math.random().toString(36).slice(2)}`));
    const markdown = await renderOf(api, account.key, `url=${article}&format=markdown`);
    expect(markdown.status, markdown.bytes.toString()).to.equal(200);
    expect(markdown.headers.get('content-type')).to.equal('text/markdown; charset=utf-8');
    expect(markdown.bytes.toString('utf8')).to.match(/^# Tuning a browser farm$/m);
    const json = await renderOf(api, account.key, `url=${article}&format=json&markdown=1&metadata=1`);
    expect(json.status, json.bytes.toString()).to.equal(200);
    expect(json.json.data.markdown)
      .to.be.a('string')
      .and.match(/^# Tuning a browser farm$/m);
    expect(json.json.data.metadata).to.deep.include({ title: 'Tuning a browser farm | The Farm Journal' });
    expect(json.json.data.metadata.open_graph).to.include({ title: 'Tuning a browser farm' });
    // Without markdown=1 the record says only that none was asked for.
    const plain = await renderOf(api, account.key, `url=${article}&format=json`);
    expect(plain.json.data).to.include({ markdown: false, metadata: null });
  });

  it('renders a source_html sent in a POST body, its record url the source hash', async function () {
    const source = '<!doctype html><title>invoice</title><body style="margin:0;background:#123456"><h1>Invoice 42</h1></body>';
    const res = await fetch(`${api.url}/screenshot/render`, {
      method: 'POST',
      headers: { 'X-API-KEY': account.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ source_html: source, screen_width: 400, screen_height: 300 }),
    });
    const bytes = Buffer.from(await res.arrayBuffer());
    expect(res.status, bytes.toString()).to.equal(200);
    expect(await sharp(bytes).metadata()).to.include({ format: 'png', width: 400, height: 300 });
    const record = await recordOf(Number(res.headers.get('x-screenshot-id')));
    expect(record.url).to.match(/^source:html\/[0-9a-f]{64}$/);
  });

  it('takes its parameters in a JSON body and in a form body (POST)', async function () {
    const url = decodeURIComponent(page());
    const jsonBody = await fetch(`${api.url}/screenshot/render`, {
      method: 'POST',
      headers: { 'X-API-KEY': account.key, 'Content-Type': 'application/json' },
      body: JSON.stringify({ url, screen_width: 500, screen_height: 400, format: 'webp' }),
    });
    expect(jsonBody.status).to.equal(200);
    expect(await sharp(Buffer.from(await jsonBody.arrayBuffer())).metadata()).to.include({ format: 'webp', width: 500, height: 400 });
    const form = await fetch(`${api.url}/screenshot/render`, { method: 'POST', headers: { 'X-API-KEY': account.key }, body: new URLSearchParams({ url, screen_width: '300', screen_height: '200' }) });
    expect(form.status).to.equal(200);
    expect(await sharp(Buffer.from(await form.arrayBuffer())).metadata()).to.include({ format: 'png', width: 300, height: 200 });
  });

  it('refuses two urls, two countries and a bad format with a 400, creating nothing', async function () {
    const before = await api.database.db('screenshots').where({ company_id: account.companyId }).count({ n: '*' });
    const two = await renderOf(api, account.key, `url=${page()}&url=${page()}`);
    expect(two.status).to.equal(400);
    expect(two.json.code).to.equal('VALIDATION_ERROR');
    expect(two.json.fields).to.have.property('url');
    const countries = await renderOf(api, account.key, `url=${page()}&country=us,fr`);
    expect(countries.status).to.equal(400);
    const format = await renderOf(api, account.key, `url=${page()}&format=bmp`);
    expect(format.status).to.equal(400);
    expect(format.json.fields).to.have.property('format');
    const timeout = await renderOf(api, account.key, `url=${page()}&timeout=121`);
    expect(timeout.status).to.equal(400);
    expect(timeout.json.fields).to.have.property('timeout');
    const after = await api.database.db('screenshots').where({ company_id: account.companyId }).count({ n: '*' });
    expect(Number(after[0]!.n)).to.equal(Number(before[0]!.n));
  });

  it('answers a cache hit with the stored bytes at cost 0, and If-None-Match with 304 at cost 0', async function () {
    const query = `url=${page()}&cache=3600&screen_width=400&screen_height=300`;
    const first = await renderOf(api, account.key, query);
    expect(first.status).to.equal(200);
    const firstId = Number(first.headers.get('x-screenshot-id'));
    expect((await ledgerOf(firstId)).length).to.equal(1);
    const hit = await renderOf(api, account.key, query);
    expect(hit.status).to.equal(200);
    const hitId = Number(hit.headers.get('x-screenshot-id'));
    expect(hitId).to.not.equal(firstId);
    expect(hit.bytes.equals(first.bytes)).to.equal(true);
    expect(hit.headers.get('etag')).to.equal(first.headers.get('etag'));
    expect((await recordOf(hitId)).cost).to.equal(0);
    expect(await ledgerOf(hitId)).to.deep.equal([]);
    const notModified = await renderOf(api, account.key, query, { 'If-None-Match': first.headers.get('etag') as string });
    expect(notModified.status).to.equal(304);
    expect(notModified.bytes.length).to.equal(0);
    const id304 = Number(notModified.headers.get('x-screenshot-id'));
    expect((await recordOf(id304)).cost).to.equal(0);
    expect(await ledgerOf(id304)).to.deep.equal([]);
  });

  it('answers a failing host with 422 CAPTURE_FAILED, its plain sentence and cause, at cost 0', async function () {
    const url = await refusedUrl();
    const res = await renderOf(api, account.key, `url=${encodeURIComponent(url)}`);
    expect(res.status).to.equal(422);
    expect(res.json).to.include({ success: false, code: 'CAPTURE_FAILED' });
    const id = res.json.details.screenshot_id as number;
    const record = await recordOf(id);
    expect(res.json.error).to.equal(record.error);
    expect(res.json.error).to.equal(`${new URL(url).host} refused the connection.`);
    expect(res.json.details.error_cause).to.equal('refused');
    expect(record.cost).to.equal(0);
    expect(await ledgerOf(id)).to.deep.equal([]);
  });

  it('answers 504 RENDER_TIMEOUT past `timeout`, and the capture goes on to finish its record', async function () {
    const hold = `render-${Math.random().toString(36).slice(2)}`;
    const res = await renderOf(api, account.key, `url=${encodeURIComponent(site.url(`/held/${hold}/echo`))}&timeout=1&max_wait=60`);
    expect(res.status).to.equal(504);
    expect(res.json).to.include({ success: false, code: 'RENDER_TIMEOUT' });
    const id = res.json.details.screenshot_id as number;
    expect((await recordOf(id)).status).to.equal('processing');
    site.release(hold);
    const later = await call(api.url, `/screenshot/info?id=${id}&wait=60`, { key: account.key });
    expect(later.body.data).to.include({ id, status: 'finished' });
  });
});
