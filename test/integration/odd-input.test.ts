import { expect } from 'chai';
import { rawRequest } from '../support/raw-request.js';
import http from 'node:http';
import zlib from 'node:zlib';
import sharp from 'sharp';
import yauzl from 'yauzl';
import { CREATE_PARAMS } from '../../api/options/create-params.js';
import { parseQuery } from '../../api/options/query-input.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';

type Answer = { status: number; body: any; headers: Headers };

/** The 400 of the spec: the envelope, with `fields` naming `field`. */
function expect400(res: Answer, field: string, label = field): void {
  const show = `${label}: ${JSON.stringify(res.body).slice(0, 500)}`;
  expect(res.status, show).to.equal(400);
  expect(res.body, show).to.include({ success: false, code: 'VALIDATION_ERROR' });
  expect(res.body.details.request_id, show).to.be.a('string').and.not.equal('');
  expect(res.body.fields, show).to.have.property(field).that.is.an('array').that.is.not.empty;
}

/** A valid value of each create parameter, to put a control character inside (so at least 2 characters long). */
const VALID_CREATE_VALUES: Record<string, string> = {
  url: 'example.com/a',
  source_html: '<p>invoice\n\t</p>',
  source_markdown: '# notes\n\n- one',
  base_url: 'https://cdn.example.com/x/',
  country: 'fr',
  browser: 'firefox',
  delay: '10',
  format: 'jpeg',
  quality: '75',
  wait_until: 'load',
  hide_ads: 'true',
  hide_popups: 'true',
  screen_width: '1000',
  screen_height: '700',
  size: 'page',
  cookie: 'a=1; b=2',
  header: 'X-A: 1',
  post_data: 'a=1&b=2',
  referer: 'https://ref.test/',
  user_agent: 'Agent/1.0',
  max_wait: '20',
  script: 'https://cdn.test/s.js',
  script_inline: 'document.title',
  dark: 'on',
  strict_ssl: 'yes',
  cache: '60',
  max_height: '2000',
  shots: '10',
  shot_interval: '30',
  tag: 'red',
  target: '#main',
  apps: 'my-hook',
  html: 'yes',
  geo_enable: 'true',
  geo_latitude: '48.85',
  geo_longitude: '2.35',
  language: 'fr-FR',
  timezone: 'Europe/Paris',
  device_name: 'iPhone 15',
  device_landscape: 'true',
  device_mobile: 'true',
  device_touch: 'true',
  device_scale: '2.5',
  pdf: 'true',
  pdf_background: 'true',
  pdf_landscape: 'true',
  pdf_one_page: 'true',
  pdf_format: 'letter',
  pdf_margin: '10px',
  pdf_margin_top: '10',
  pdf_margin_bottom: '5mm',
  pdf_margin_left: '1cm',
  pdf_margin_right: '0.5in',
  video: 'true',
  video_format: 'webm',
  video_quality: '30',
  video_speed: '2.5',
  video_duration: '15',
  video_fps: '30',
  video_colors: '128',
  video_scale: '0.5',
  priority: '10',
  wait_for: '#main',
  wait_for_hidden: '.spinner',
  wait_strict: 'true',
  click: '#tab',
  hover: '#menu',
  hide_selector: '.banner',
  css: 'body { color: red }',
  fail_on_status: '404',
  fail_if_selector: '.error',
  fail_unless_selector: '#main',
  fail_on_blank: 'true',
  block_chats: 'true',
  block_trackers: 'true',
  block_social: 'true',
  block_resources: 'font',
  block_urls: '*.hotjar.com/*',
  markdown: 'true',
  markdown_mode: 'full',
  metadata: 'true',
};
/** What a parameter needs beside it to be valid. */
const CONTEXT: Record<string, string> = {
  url: '',
  base_url: '&source_html=x',
  wait_strict: '&wait_for=%23main',
  geo_enable: '&geo_latitude=1&geo_longitude=2',
  geo_latitude: '&geo_longitude=2',
  geo_longitude: '&geo_latitude=1',
};
/** Multi-line by nature (a form body, a script, `Name: value` lines): there, only NUL is refused. */
const MULTI_LINE = new Set(['post_data', 'script_inline', 'header', 'css', 'source_html', 'source_markdown']);
/** The options that are, or need, the target instead of a url (exactly one of url, source_html, source_markdown). */
const WITHOUT_URL = new Set(['url', 'source_html', 'source_markdown', 'base_url']);

describe('odd and oversized input', function () {
  this.timeout(120_000);
  let api: TestApi;
  let acct: TestAccount;
  const screenshotCount = async (): Promise<number> => Number((await api.database.db('screenshots').count('* as n'))[0]?.n);

  async function finishedWithImage(width: number, height: number): Promise<number> {
    const created = await call(api.url, '/screenshot/create?url=image.test', { key: acct.key });
    const id = Number(created.body.data[0].id);
    await attachImage(id, width, height);
    return id;
  }
  async function attachImage(id: number, width: number, height: number): Promise<void> {
    const png = await sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } })
      .png()
      .toBuffer();
    const key = `screenshots/${id}/shot-1.png`;
    await api.parts.objects.put(key, png, { contentType: 'image/png', size: png.length });
    await api.database.db('screenshot_files').insert({ company_id: acct.companyId, screenshot_id: id, kind: 'image', shot: 1, storage_key: key, content_type: 'image/png', size_bytes: png.length });
    await api.database.db('screenshots').where({ id }).update({ status: 'finished', finished_at: api.database.db.fn.now() });
  }

  before(async () => {
    api = await startTestApi('pglite', { SHOTFARM_BATCH_MAX_FILE_BYTES: String(64 * 1024) });
    acct = await api.account(1_000_000);
    await api.database.db('app_configs').insert({ company_id: acct.companyId, app_id: 'my-hook', type: 'webhook', name: 'My hook', settings: '{}' });
  });
  after(async () => api?.stop());

  describe('URLs', () => {
    it('a 4,097-character URL is a 400 naming url; 4,096 characters are accepted', async () => {
      const base = 'https://long.test/';
      const before = await screenshotCount();
      expect400(await call(api.url, `/screenshot/create?url=${base}${'a'.repeat(4097 - base.length)}`, { key: acct.key }), 'url');
      expect(await screenshotCount()).to.equal(before);
      const ok = await call(api.url, `/screenshot/create?url=${base}${'a'.repeat(4096 - base.length)}`, { key: acct.key });
      expect(ok.status, JSON.stringify(ok.body).slice(0, 300)).to.equal(200);
      expect(ok.body.data[0].url).to.have.length(4096);
    });

    it('IDN hosts become punycode, hosts lowercase; percent-encoding is added where needed and never doubled', async () => {
      const cases: [string, string][] = [
        ['bücher.example/straße', 'https://xn--bcher-kva.example/stra%C3%9Fe'],
        ['HTTP://ÉXAMPLE.COM/A B?q=ü#frag', 'http://xn--xample-9ua.com/A%20B?q=%C3%BC#frag'],
        ['https://example.com/already%20encoded/%C3%BC?x=%26', 'https://example.com/already%20encoded/%C3%BC?x=%26'],
        ['例え.テスト', 'https://xn--r8jz45g.xn--zckzah/'],
        ['//example.com:8080/p', 'https://example.com:8080/p'],
      ];
      for (const [input, want] of cases) {
        const res = await call(api.url, `/screenshot/create?url=${encodeURIComponent(input)}`, { key: acct.key });
        expect(res.status, `${input}: ${JSON.stringify(res.body).slice(0, 300)}`).to.equal(200);
        expect(res.body.data[0].url, input).to.equal(want);
      }
    });
  });

  describe('control characters', () => {
    it('in every parameter of /screenshot/create: 400 naming the parameter, nothing created', async () => {
      // Every parameter of the table has a valid value here, so a new one cannot be left out silently.
      expect(Object.keys(VALID_CREATE_VALUES).sort()).to.deep.equal(Object.keys(CREATE_PARAMS).sort());
      for (const [name, value] of Object.entries(VALID_CREATE_VALUES)) {
        // The valid value really is valid: the 400s below come from the control character alone.
        const query = (v: string): string => `/screenshot/create?${WITHOUT_URL.has(name) ? '' : 'url=a.test&'}${name}=${encodeURIComponent(v)}${CONTEXT[name] ?? ''}`;
        const plain = await call(api.url, query(value), { key: acct.key });
        expect(plain.status, `${name}=${value}: ${JSON.stringify(plain.body).slice(0, 300)}`).to.equal(200);
        const chars = MULTI_LINE.has(name) ? (name === 'header' ? ['\x00', '\x1b', '\x7f'] : ['\x00']) : ['\x00', '\x01', '\x1b', '\n', '\r', '\x7f'];
        for (const c of chars) {
          // Inside the value: surrounding white space (\n, \r) is trimmed from scalars and list items, harmlessly.
          const bad = `${value.slice(0, 1)}${c}${value.slice(1)}`;
          const before = await screenshotCount();
          const res = await call(api.url, query(bad), { key: acct.key });
          expect400(res, name, JSON.stringify(bad));
          expect(await screenshotCount(), name).to.equal(before);
        }
      }
    });

    it('in the text parameters of the other operations: 400 naming the parameter', async () => {
      const id = await finishedWithImage(40, 30);
      for (const c of ['\x00', '\x01', '\n', '\x7f']) {
        const e = encodeURIComponent(`ab${c}cd`);
        expect400(await call(api.url, `/screenshot/search?url=${e}`, { key: acct.key }), 'url');
        expect400(await call(api.url, `/screenshot/list?tag=${e}`, { key: acct.key }), 'tag');
        expect400(await call(api.url, `/screenshot/list?country=${encodeURIComponent(`f${c}`)}`, { key: acct.key }), 'country');
        expect400(await call(api.url, `/screenshot/thumbnail?id=${id}&filename=${e}`, { key: acct.key }), 'filename');
        for (const field of ['name', 'filename_template', 'hosting_bucket']) {
          const res = await call(api.url, '/batch/create', {
            method: 'POST',
            key: acct.key,
            headers: { 'Content-Type': 'application/json' },
            body: JSON.stringify({ urls: ['a.test'], [field]: `ab${c}cd` }),
          });
          expect400(res, field);
        }
      }
      expect(Number((await api.database.db('batches').count('* as n'))[0]?.n)).to.equal(0);
    });
  });

  describe('thumbnail', () => {
    let id: number;
    before(async () => {
      id = await finishedWithImage(64, 48);
    });

    it('a filename that would inject a header is a 400; a valid one gives a safe Content-Disposition', async () => {
      for (const name of ['a\r\nX-Evil: 1', 'a\nSet-Cookie: x=1', 'a"; filename="evil.exe', 'a\\b', '../x.png', 'a/b.png', '', 'x'.repeat(256)]) {
        const res = await call(api.url, `/screenshot/thumbnail?id=${id}&filename=${encodeURIComponent(name)}`, { key: acct.key });
        expect400(res, 'filename');
        expect(res.headers.get('x-evil')).to.equal(null);
        expect(res.headers.get('content-disposition')).to.equal(null);
      }
      const res = await fetch(`${api.url}/screenshot/thumbnail?id=${id}&filename=${encodeURIComponent('résumé report;1.png')}`, { headers: { 'X-API-KEY': acct.key } });
      expect(res.status).to.equal(200);
      const cd = res.headers.get('content-disposition') ?? '';
      // The quoted form is plain printable ASCII; the UTF-8 form is percent-encoded and cannot close the quote.
      expect(cd).to.equal(`attachment; filename="r_sum_ report;1.png"; filename*=UTF-8''r%C3%A9sum%C3%A9%20report%3B1.png`);
      expect(cd).to.match(/^[\x20-\x7e]+$/);
      await res.arrayBuffer();
    });

    it('huge dimensions are bounded: 400 before any pixel is rendered', async () => {
      for (const [q, field] of [
        ['width=10001', 'width'],
        ['height=10001', 'height'],
        ['width=99999999999999999999', 'width'],
        ['scale=11', 'scale'],
        ['left=100001', 'left'],
      ] as const) {
        expect400(await call(api.url, `/screenshot/thumbnail?id=${id}&${q}`, { key: acct.key }), field);
      }
      // 64 px scaled by 10 is 640: fine. A scale that would pass the side limit is refused.
      const wide = await finishedWithImage(2000, 20);
      expect400(await call(api.url, `/screenshot/thumbnail?id=${wide}&scale=6`, { key: acct.key }), 'scale');
    });

    it('regression: a width alone on a full-page capture cannot make the other side unbounded (was minutes of CPU)', async () => {
      // 100 × 3000: width 10,000 keeps the ratio, so the height would be 300,000 pixels.
      const tall = await finishedWithImage(100, 3000);
      const started = Date.now();
      expect400(await call(api.url, `/screenshot/thumbnail?id=${tall}&width=10000`, { key: acct.key }), 'width');
      expect400(await call(api.url, `/screenshot/thumbnail?id=${tall}&width=400`, { key: acct.key }), 'width');
      const wide = await finishedWithImage(3000, 100);
      expect400(await call(api.url, `/screenshot/thumbnail?id=${wide}&height=400`, { key: acct.key }), 'height');
      expect(Date.now() - started).to.be.below(5000);
      // Within the bound, and with both sides given, the answer is the image asked for.
      for (const [q, w, h] of [
        ['width=300', 300, 9000],
        ['width=500&height=500', 17, 500],
        ['width=500&height=500&ratio=fill', 500, 500],
      ] as const) {
        const res = await fetch(`${api.url}/screenshot/thumbnail?id=${tall}&${q}`, { headers: { 'X-API-KEY': acct.key } });
        expect(res.status, q).to.equal(200);
        const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
        expect([meta.width, meta.height], q).to.deep.equal([w, h]);
      }
    });
  });

  describe('batch file over the limit', () => {
    it('a 50 MB streamed multipart body answers 413 without being held in memory', async () => {
      const total = 50 * 1024 * 1024;
      const boundary = '----shotfarm-odd-input';
      const line = Buffer.from('https://example.com/some/page/that/is/long/enough\n'.repeat(1300));
      const target = new URL(`${api.url}/batch/create`);
      global.gc?.();
      const rssBefore = process.memoryUsage().rss;
      let peak = rssBefore;
      let sent = 0;
      const answer = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(target, { method: 'POST', headers: { 'X-API-KEY': acct.key, 'Content-Type': `multipart/form-data; boundary=${boundary}`, 'Content-Length': String(total) } });
        let answered = false;
        req.on('response', (res) => {
          answered = true;
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (d: string) => {
            body += d;
          });
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body }));
        });
        // The server may close the connection once it has answered: that is not a failure of the test.
        req.on('error', (err) => {
          if (!answered) reject(err);
        });
        const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="urls.txt"\r\nContent-Type: text/plain\r\n\r\n`);
        req.write(head);
        sent = head.length;
        const pump = (): void => {
          while (!answered && sent < total) {
            const chunk = sent + line.length <= total ? line : line.subarray(0, total - sent);
            sent += chunk.length;
            peak = Math.max(peak, process.memoryUsage().rss);
            if (!req.write(chunk)) return void req.once('drain', pump);
          }
          if (sent >= total) req.end();
        };
        pump();
      });
      peak = Math.max(peak, process.memoryUsage().rss);
      expect(answer.status, answer.body).to.equal(413);
      const body = JSON.parse(answer.body);
      expect(body).to.include({ success: false, code: 'PAYLOAD_TOO_LARGE' });
      expect(body.error).to.be.a('string').and.not.equal('');
      expect(body.details.request_id).to.be.a('string');
      // Client and server share this process: holding the 50 MB anywhere would show here.
      expect(peak - rssBefore, `RSS grew by ${((peak - rssBefore) / 1024 / 1024).toFixed(1)} MB`).to.be.below(20 * 1024 * 1024);
      expect(Number((await api.database.db('batches').count('* as n'))[0]?.n)).to.equal(0);
      // The server still answers on a new connection.
      expect((await call(api.url, '/account/info', { key: acct.key })).status).to.equal(200);
    });
  });

  describe('filename_template through the API', () => {
    it('ZIP entry names never contain .. or start with /', async () => {
      const res = await call(api.url, '/batch/create', {
        method: 'POST',
        key: acct.key,
        headers: { 'Content-Type': 'application/json' },
        body: JSON.stringify({ urls: ['a.test/x', 'b.test/y'], filename_template: '../../{domain}/..\\../{url}/../../etc/passwd' }),
      });
      expect(res.status, JSON.stringify(res.body).slice(0, 400)).to.equal(200);
      const batchId = Number(res.body.data[0].id);
      const shots = (await api.database.db('screenshots').where({ batch_id: batchId }).pluck('id')).map(Number);
      expect(shots).to.have.length(2);
      for (const s of shots) await attachImage(s, 20, 10);
      const zipRes = await fetch(`${api.url}/batch/download?id=${batchId}`, { headers: { 'X-API-KEY': acct.key } });
      expect(zipRes.status).to.equal(200);
      const buffer = Buffer.from(await zipRes.arrayBuffer());
      const zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true });
      const names: string[] = [];
      for await (const entry of zip.eachEntry()) names.push(entry.fileName);
      expect(names.filter((n) => n.endsWith('.png'))).to.have.length(2);
      for (const n of names) {
        expect(n, n).to.not.match(/^[/\\]/);
        expect(n.split(/[/\\]/), n).to.not.include('..');
      }
    });
  });

  describe('regression: parameter names cannot reach Object.prototype', () => {
    it('parseQuery keeps __proto__ and constructor as plain keys', () => {
      const q = parseQuery('__proto__[url]=evil.test&constructor=1&toString[0]=x');
      expect(({} as Record<string, unknown>).url).to.equal(undefined);
      expect(Object.getPrototypeOf(q)).to.equal(null);
      expect(q.constructor).to.deep.equal(['1']);
      expect(q.toString).to.deep.equal([['x']]);
    });

    it('__proto__[url] in a query neither pollutes the process nor lends a url to the next request', async () => {
      const polluting = await call(api.url, '/screenshot/create?url=a.test&__proto__[url]=evil.test&__proto__[polluted]=1', { key: acct.key });
      expect(polluting.status).to.be.below(500);
      expect(({} as Record<string, unknown>).polluted).to.equal(undefined);
      // Before the fix every later request without a url inherited ["evil.test"] and created a screenshot of it.
      expect400(await call(api.url, '/screenshot/create', { key: acct.key }), 'url');
      // A stray parameter named like an Object method is ignored like any unknown one.
      expect((await call(api.url, '/screenshot/create?url=a.test&constructor=1&toString=2', { key: acct.key })).status).to.equal(200);
    });
  });
  it('regression: NUL in a batch file line or a CSV filename is shown as U+FFFD, not a 500 (Postgres refuses NUL)', async () => {
    const form = new FormData();
    form.append('file', new Blob(['url,filename\nhttps://nul.test/,a\u0000b\n\u0000bad\n']), 'urls.csv');
    const res = await call(api.url, '/batch/create', { method: 'POST', key: acct.key, body: form });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data[0].count).to.equal(1);
    expect(res.body.data[0].invalid_lines[0].text).to.equal('\uFFFDbad');
    // The other tests count batches and screenshots to prove a 4xx created nothing: leave none behind.
    const id = res.body.data[0].id;
    await api.database
      .db('app_runs')
      .whereIn('screenshot_id', api.database.db('screenshots').select('id').where({ batch_id: id }))
      .delete();
    await api.database.db('screenshots').where({ batch_id: id }).delete();
    await api.database.db('batches').where({ id }).delete();
  });

  describe('regression: bodies and methods that were 500s (issue #14)', () => {
    /** Any method, any bytes, any headers: fetch refuses TRACE, so this speaks HTTP itself. */
    const raw = (method: string, path: string, headers: Record<string, string>, body?: Buffer): Promise<Answer> => rawRequest(api.url, acct.key, method, path, headers, body);
    const nested = (depth: number): string => `{"id":${'['.repeat(depth)}1${']'.repeat(depth)}}`;

    it('a JSON body nested 5,000 deep: 400 naming body, on every operation that reads a body (was a stack overflow)', async () => {
      const before = await screenshotCount();
      for (const path of ['/crawl/create', '/crawl/cancel', '/batch/cancel', '/batch/create', '/app/create', '/app/update?id=1', '/key/create']) {
        const res = await raw('POST', path, { 'Content-Type': 'application/json' }, Buffer.from(nested(5000)));
        expect400(res, 'body', `POST ${path}`);
        expect(res.body.fields.body[0]).to.match(/deeper than 32/);
      }
      // The limit is far above any honest body: 32 levels are still read (and refused for what they say).
      expect((await raw('POST', '/crawl/cancel', { 'Content-Type': 'application/json' }, Buffer.from(nested(31)))).body.fields).to.not.have.property('body');
      expect(await screenshotCount()).to.equal(before);
    });

    it("TRACE and other methods no route implements: 405 in the envelope (was the router's 501, answered as a 500)", async () => {
      for (const method of ['TRACE', 'PROPFIND', 'MKCOL', 'PURGE']) {
        const res = await raw(method, '/device/list', {});
        expect(res.status, `${method} ${JSON.stringify(res.body)}`).to.equal(405);
        expect(res.body).to.include({ success: false, code: 'METHOD_NOT_ALLOWED' });
        expect(res.body.details.request_id).to.be.a('string').and.not.equal('');
      }
    });

    it('a truncated or corrupt compressed body: 400 naming body and the encoding (a truncated gzip body was a 500)', async () => {
      const json = Buffer.from(JSON.stringify({ id: 1 }));
      const cases: [string, Buffer][] = [
        ['gzip', zlib.gzipSync(json).subarray(0, 10)],
        ['gzip', Buffer.from('not gzip at all')],
        ['deflate', zlib.deflateSync(json).subarray(0, 4)],
        ['br', zlib.brotliCompressSync(json).subarray(0, 3)],
      ];
      for (const [encoding, body] of cases) {
        for (const path of ['/batch/cancel', '/crawl/create', '/batch/create']) {
          const res = await raw('POST', path, { 'Content-Type': 'application/json', 'Content-Encoding': encoding }, body);
          expect400(res, 'body', `${encoding} ${path}`);
          expect(res.body.fields.body[0]).to.include(`Content-Encoding ${encoding}`);
        }
      }
      // An intact compressed body is read.
      expect((await raw('POST', '/batch/cancel', { 'Content-Type': 'application/json', 'Content-Encoding': 'gzip' }, zlib.gzipSync(json))).status).to.equal(404);
    });
  });

  it('regression: NUL in a step or tracker value is a 400 naming it, not a 500', async () => {
    const steps = await call(api.url, `/screenshot/create?url=a.test&steps=${encodeURIComponent(JSON.stringify([{ command: 'type', selector: 'input', value: 'a\u0000b' }]))}`, { key: acct.key });
    expect(steps.status).to.equal(400);
    expect(steps.body.fields).to.have.property('steps[0].value');
    const trackers = await call(api.url, `/screenshot/create?url=a.test&tracker[0][id]=t&tracker[0][selector]=${encodeURIComponent('h1\u0000')}`, { key: acct.key });
    expect(trackers.status).to.equal(400);
    expect(trackers.body.fields).to.have.property('tracker[0].selector');
  });
});
