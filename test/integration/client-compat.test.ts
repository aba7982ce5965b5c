import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import sharp from 'sharp';
import { LinkGraphSite } from '../support/link-graph-site.js';
import { createThrowawayPostgres } from '../support/databases.js';
import { CLI_PATH, runCli } from '../support/run-cli.js';
import { ScreenshotCenterReceiver } from '../support/screenshotcenter-receiver.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';
import { until } from '../support/wait-until.js';
import { WebhookReceiver } from '../support/webhook-receiver.js';

/**
 * The requests the original service's (ScreenshotCenter's) official clients send, replayed as they send
 * them: parameter names of their documentation, the key in the query or in X-API-KEY, a multipart batch
 * with a quoted boundary, unquoted part names, `filename*=`, `True` and an empty `false`, a crawl's
 * `maxUrls` in a JSON body. Each runs against one service per SHOTFARM_CLIENT_COMPAT setting and asserts
 * the shape those clients parse: with `screenshotcenter`, `data` of a one-url create and of batch create
 * is ONE object (`shot["id"]`, `getLong("id")`); with the default it is the spec's array.
 * Not here: a multipart field part carrying its own Content-Type (another change covers it).
 */

const STANDARD_SECRET = `whsec_${Buffer.alloc(32, 9).toString('base64')}`;
/** A receiver's own secret from the original service: any text, used as the HMAC key as it is. */
const SC_SECRET = 'my-old-screenshotcenter-secret-42';

/** A multipart body written by hand, as a client's own multipart writer lays it out. */
function multipart(boundary: string, parts: { disposition: string; type?: string; value: string }[]): string {
  const lines = parts.flatMap((p) => [`--${boundary}`, `Content-Disposition: form-data; ${p.disposition}`, ...(p.type ? [`Content-Type: ${p.type}`] : []), '', p.value]);
  return [...lines, `--${boundary}--`, ''].join('\r\n');
}

for (const mode of ['screenshotcenter', 'spec'] as const) {
  describe(`the original clients' first calls, SHOTFARM_CLIENT_COMPAT=${mode} (embedded, real Chromium)`, function () {
    this.timeout(120_000);
    let api: TestApi;
    let site: TestSite;
    let graph: LinkGraphSite;
    let acct: TestAccount;
    let standard: WebhookReceiver;
    let sc: ScreenshotCenterReceiver;
    let shot: any;

    /** `data` of a create that made one record, as the clients read it: the object, or the spec's array of one. */
    const theOne = (data: unknown): any => {
      if (mode === 'screenshotcenter') {
        expect(data).to.be.an('object').and.not.be.an('array');
        return data;
      }
      expect(data).to.be.an('array').with.length(1);
      return (data as unknown[])[0];
    };
    const get = (path: string, key = acct.key) => call(api.url, path, { key });
    const postJson = (path: string, body: unknown) => call(api.url, path, { method: 'POST', key: acct.key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

    before(async () => {
      [site, graph, standard, sc] = await Promise.all([TestSite.start(), LinkGraphSite.start(), WebhookReceiver.start(STANDARD_SECRET), ScreenshotCenterReceiver.start(SC_SECRET)]);
      api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_CLIENT_COMPAT: mode }, { agent: true });
      acct = await api.account(1000);
      for (const [appId, settings] of [
        ['hook-standard', { url: standard.url, secret: STANDARD_SECRET, events: ['screenshot.finished'] }],
        ['hook-sc', { url: sc.url, secret: SC_SECRET, events: ['screenshot.finished'], format: 'screenshotcenter' }],
      ] as const) {
        const res = await postJson('/app/create', { app_id: appId, type: 'webhook', name: appId, settings });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
    });
    after(async () => {
      await api?.stop();
      await Promise.all([site?.close(), graph?.close(), standard?.close(), sc?.close()]);
    });

    it("create with the clients' spellings (key in the query): one Screenshot, aliases applied, unknown parameter and screenshot step in warnings", async () => {
      const steps = JSON.stringify([{ command: 'fill', selector: '#q', value: 'bread' }, { command: 'screenshot' }]);
      const query = new URLSearchParams({
        url: site.url('/echo?compat=1'),
        lang: 'de-DE',
        tz: 'Asia/Tokyo',
        full_page: 'true',
        html: '1',
        pdf: '1',
        video: '1',
        video_length: '1',
        hide_popups: '',
        dark: 'False',
        steps,
        colour: 'red',
        apps: 'hook-standard,hook-sc',
        key: acct.key,
      });
      const res = await call(api.url, `/screenshot/create?${query}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const created = theOne(res.body.data);
      expect(created.id).to.be.a('number');
      expect(created).to.include({
        status: 'processing',
        language: 'de-DE',
        timezone: 'Asia/Tokyo',
        size: 'page',
        video_duration: 1,
        hide_popups: false,
        dark: false,
        html: true,
        pdf: true,
        video: true,
      });
      expect(created.steps).to.deep.equal([{ command: 'type', selector: '#q', value: 'bread' }]);
      expect(created.warnings).to.deep.equal(['The parameter "colour" is not known and was ignored.', 'Step 2 (screenshot) was skipped: the screenshot is taken after the steps.']);
      shot = created;
    });

    it("info (X-API-KEY) waits for it: finished, with html, pdf and video, the request's warnings kept beside the capture's", async () => {
      const info = await until(
        'the capture',
        async () => {
          const res = await get(`/screenshot/info?id=${shot.id}&wait=30`);
          return res.body.data?.status !== 'processing' && res.body.data;
        },
        90_000,
      );
      expect(info, JSON.stringify(info)).to.include({ status: 'finished', has_html: true, has_pdf: true, has_video: true });
      expect(info.warnings.slice(0, 2)).to.deep.equal(shot.warnings);
      // The `fill` ran as `type`: the echo page has no #q, so the capture says the step did not find it.
      expect(info.warnings.slice(2).join(' ')).to.match(/#q/);
    });

    it('thumbnail, html, pdf and video download as the clients save them', async () => {
      const thumb = await fetch(`${api.url}/screenshot/thumbnail?id=${shot.id}&width=200&key=${acct.key}`);
      expect(thumb.status).to.equal(200);
      expect((await sharp(Buffer.from(await thumb.arrayBuffer())).metadata()).width).to.equal(200);
      const html = await fetch(`${api.url}/screenshot/html?id=${shot.id}&key=${acct.key}`);
      expect(html.headers.get('content-type')).to.match(/^text\/html/);
      expect(await html.text()).to.include('compat=1');
      const pdf = Buffer.from(await (await fetch(`${api.url}/screenshot/pdf?id=${shot.id}&key=${acct.key}`)).arrayBuffer());
      expect(pdf.subarray(0, 5).toString()).to.equal('%PDF-');
      const video = await fetch(`${api.url}/screenshot/video?id=${shot.id}&key=${acct.key}`);
      expect(video.headers.get('content-type')).to.equal('video/mp4');
      expect((await video.arrayBuffer()).byteLength).to.be.above(100);
    });

    it('a create that makes several screenshots stays an array (here two answered from the cache, no browser work)', async () => {
      const query = new URLSearchParams([
        ['url', site.url('/echo?compat=1')],
        ['url', site.url('/echo?compat=1')],
        ['lang', 'de-DE'],
        ['tz', 'Asia/Tokyo'],
        ['full_page', '1'],
        ['html', '1'],
        ['pdf', '1'],
        ['video', '1'],
        ['video_length', '1'],
        ['dark', '0'],
        ['steps', JSON.stringify([{ command: 'fill', selector: '#q', value: 'bread' }])],
        ['cache', 'true'],
      ]);
      const res = await get(`/screenshot/create?${query}`);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.be.an('array').with.length(2);
      expect(res.body.data.map((s: any) => s.status)).to.deep.equal(['finished', 'finished']);
      // Delete one of them the way the clients do.
      const gone = res.body.data[1].id;
      expect((await get(`/screenshot/delete?id=${gone}`)).body).to.deep.equal({ success: true, data: { id: gone, deleted: 'all' } });
      expect((await get(`/screenshot/info?id=${gone}`)).status).to.equal(404);
    });

    it('list and search answer arrays of Screenshots', async () => {
      const list = await get('/screenshot/list?limit=10');
      expect(list.body.data).to.be.an('array');
      expect(list.body.data.map((s: any) => s.id)).to.include(shot.id);
      const search = await get('/screenshot/search?url=compat%3D1');
      expect(search.body.data.map((s: any) => s.id)).to.include(shot.id);
    });

    it('the webhook reaches a Standard Webhooks receiver and a receiver written for ScreenshotCenter, each verifying its own way', async () => {
      const [event] = await until('the standard delivery', async () => standard.ofType('screenshot.finished').length > 0 && standard.ofType('screenshot.finished'));
      expect(event?.verified).to.equal(true);
      expect(event?.data.id).to.equal(shot.id);

      const [delivery] = await until('the screenshotcenter delivery', async () => sc.deliveries.length > 0 && sc.deliveries);
      expect(delivery?.verified, "HMAC-SHA256 of the raw body with the receiver's secret").to.equal(true);
      expect(delivery?.headers['x-signature']).to.equal(delivery?.headers['x-screenshotcenter-signature']);
      expect(delivery?.event).to.equal('screenshot.finished');
      const body = delivery?.body;
      expect(Object.keys(body).sort()).to.deep.equal(['created_at', 'event', 'height', 'image_url', 'metadata', 'screenshot_id', 'status', 'url', 'width'].sort());
      expect(body).to.include({ event: 'screenshot.finished', screenshot_id: shot.id, url: shot.url, status: 'finished', created_at: shot.created_at });
      // image_url opens the image without an API key: the pixels the width and height say.
      const image = await fetch(body.image_url);
      expect(image.status).to.equal(200);
      const meta = await sharp(Buffer.from(await image.arrayBuffer())).metadata();
      expect([meta.width, meta.height]).to.deep.equal([body.width, body.height]);
      // The token is the only key: changed, or for another screenshot, it opens nothing.
      const token = new URL(body.image_url).searchParams.get('token') as string;
      expect((await fetch(body.image_url.replace(token, `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`))).status).to.equal(404);
      expect((await fetch(body.image_url.replace(`id=${shot.id}`, `id=${shot.id + 1}`))).status).to.equal(404);
    });

    let batchId = 0;
    it('batch create from a file part (quoted boundary, unquoted names, filename*=, True, an empty false): one Batch', async () => {
      const boundary = '----ClientBoundary7MA4YWxkTrZu0gW';
      const body = multipart(boundary, [
        { disposition: "name=file; filename*=UTF-8''urls%20list.txt", type: 'text/plain', value: `${site.url('/echo?batch=1')}\n${site.url('/echo?batch=2')}\n` },
        { disposition: 'name=lang', value: 'fr-FR' },
        { disposition: 'name="full_page"', value: 'True' },
        { disposition: 'name="pdf"', value: '' },
        { disposition: 'name="html"', value: 'False' },
        { disposition: 'name="callback_url"', value: 'https://example.com/cb' },
        { disposition: 'name="name"', value: 'compat batch' },
      ]);
      const res = await call(api.url, '/batch/create', { method: 'POST', key: acct.key, headers: { 'content-type': `multipart/form-data; boundary="${boundary}"` }, body });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      const batch = theOne(res.body.data);
      expect(batch.id).to.be.a('number');
      expect(batch).to.include({ status: 'processing', count: 2, name: 'compat batch' });
      batchId = batch.id;
    });

    it('batch info, list and download; each screenshot has the options and names the unknown field', async () => {
      const info = await until(
        'the batch',
        async () => {
          const b = (await get(`/batch/info?id=${batchId}`)).body.data;
          return b.status !== 'processing' && b;
        },
        90_000,
      );
      expect(info).to.include({ status: 'finished', processed: 2, failed: 0 });
      expect(info.screenshots).to.have.length(2);
      for (const id of info.screenshots) {
        const s = (await get(`/screenshot/info?id=${id}`)).body.data;
        expect(s).to.include({ language: 'fr-FR', size: 'page', pdf: false, html: false });
        expect(s.warnings[0]).to.equal('The parameter "callback_url" is not known and was ignored.');
      }
      expect((await get('/batch/list')).body.data.map((b: any) => b.id)).to.include(batchId);
      const zip = Buffer.from(await (await fetch(`${api.url}/batch/download?id=${batchId}&key=${acct.key}`)).arrayBuffer());
      expect(zip.subarray(0, 2).toString()).to.equal('PK');
    });

    it('batch cancel ({"id": N} body) answers the Batch', async () => {
      const form = new FormData();
      // The 2 s delay keeps the capture in the browser when the cancel comes.
      form.append('file', new Blob([`${site.url('/echo?cancel=1')}\n`]), 'urls.txt');
      form.append('delay', '2');
      const created = theOne((await call(api.url, '/batch/create', { method: 'POST', key: acct.key, body: form })).body.data);
      const cancelled = await postJson('/batch/cancel', { id: created.id });
      expect(cancelled.body.data).to.include({ id: created.id, status: 'error' });
    });

    it('crawl create with maxUrls and lang in the JSON body, then info, list and cancel', async () => {
      const res = await postJson('/crawl/create', { url: graph.pageUrl(0), domain: 'localhost', maxUrls: 2, lang: 'fr-FR', colour: 'blue' });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      expect(res.body.data).to.include({ status: 'processing', max_urls: 2 });
      const crawl = await until(
        'the crawl',
        async () => {
          const c = (await get(`/crawl/info?id=${res.body.data.id}`)).body.data;
          return c.status !== 'processing' && c;
        },
        90_000,
      );
      expect(crawl).to.include({ status: 'finished', processed: 2 });
      expect(crawl.screenshots.map((s: any) => s.language)).to.deep.equal(['fr-FR', 'fr-FR']);
      // The first page's record names the unknown field (later pages are built from the options kept).
      const first = crawl.screenshots.find((s: any) => s.url === graph.pageUrl(0));
      expect(first.warnings[0]).to.equal('The parameter "colour" is not known and was ignored.');
      expect((await get('/crawl/list')).body.data.map((c: any) => c.id)).to.include(crawl.id);

      const next = await postJson('/crawl/create', { url: graph.pageUrl(10), domain: 'localhost', maxUrls: 5 });
      const cancelled = await call(api.url, `/crawl/cancel?id=${next.body.data.id}`, { method: 'POST', key: acct.key });
      expect(cancelled.body.data).to.include({ id: next.body.data.id, status: 'cancelled' });
    });

    it("account info: plan is the plan's id, a string, and its details are beside it", async () => {
      expect((await get('/account/info')).body.data.plan).to.equal(null);
      const subscribed = await postJson('/billing/subscribe', { planId: 'free' });
      expect(subscribed.status, JSON.stringify(subscribed.body)).to.equal(200);
      const info = (await get('/account/info')).body.data;
      expect(info.plan).to.equal('free');
      expect(info.plan_details).to.include({ id: 'free' });
      expect(info.balance).to.be.a('number');
      expect(info.company_id).to.equal(acct.companyId);
    });
  });
}

describe('SHOTFARM_CLIENT_COMPAT on the command line', function () {
  this.timeout(60_000);
  let dataDir: string;
  let pg: { url: string; drop(): Promise<void> };
  before(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'shotfarm-compat-cli-'));
    // Postgres: the embedded database's first start (its migrations in WASM) takes far longer.
    pg = await createThrowawayPostgres();
  });
  after(async () => {
    await pg?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('`shotfarm settings` lists it with its default; an unknown value stops the start, naming it', async () => {
    const settings = await runCli(['settings'], {});
    expect(settings.stdout).to.match(/^SHOTFARM_CLIENT_COMPAT\tspec\t/m);
    const bad = await runCli(['api'], { SHOTFARM_CLIENT_COMPAT: 'screenshotcentre', SHOTFARM_DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    expect(bad.code).to.equal(2);
    expect(bad.stderr).to.include('SHOTFARM_CLIENT_COMPAT: must be spec or screenshotcenter (got "screenshotcentre")');
  });

  it('the start-up banner says when it is set', async () => {
    const child = spawn(process.execPath, [CLI_PATH, 'api'], {
      env: { PATH: process.env.PATH ?? '', PORT: '0', HOST: '127.0.0.1', SHOTFARM_DATA_DIR: dataDir, DATABASE_URL: pg.url, LOG_LEVEL: 'silent', SHOTFARM_CLIENT_COMPAT: 'screenshotcenter' },
    });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    try {
      await until('the banner', async () => out.includes('OpenAPI'), 45_000);
      expect(out).to.match(/Client compatibility: screenshotcenter \(SHOTFARM_CLIENT_COMPAT\)/);
    } finally {
      child.kill('SIGTERM');
      await new Promise((r) => child.once('exit', r));
    }
  });
});
