import { expect } from 'chai';
import sharp, { type Metadata } from 'sharp';
import yauzl from 'yauzl';
import { call, createAndWait, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';

/** Every file name and its bytes in a ZIP. */
async function unzip(buffer: Buffer): Promise<Map<string, Buffer>> {
  const zip = await yauzl.fromBufferPromise(buffer, { lazyEntries: true });
  const files = new Map<string, Buffer>();
  for await (const entry of zip.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await zip.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    files.set(entry.fileName, Buffer.concat(chunks));
  }
  return files;
}

/**
 * The stored image's format (beyond-v1.md part 4) on an embedded farm with a real Chromium: `format` and
 * `quality` on create and batch, recorded on the record, stored and served in that format with its type and
 * file extension by the image, the thumbnail and the batch ZIP; the viewport straight from Chromium, the full
 * page (tiled, stitched as PNG) encoded once by the agent.
 */
describe('image format of the capture: jpeg and webp stored and served (pglite, chrome)', function () {
  this.timeout(300_000);
  let site: TestSite;
  let api: TestApi;
  let account: TestAccount;

  before(async function () {
    site = await TestSite.start();
    api = await startTestApi('pglite', { SHOTFARM_AGENT_BROWSERS: 'chrome' }, { agent: true });
    account = await api.account(1000);
  });
  after(async function () {
    await api?.stop();
    await site?.close();
  });

  const thumbnail = async (id: number, query = ''): Promise<{ type: string | null; disposition: string | null; meta: Metadata }> => {
    const res = await fetch(`${api.url}/screenshot/thumbnail?id=${id}${query}`, { headers: { 'X-API-KEY': account.key } });
    expect(res.status).to.equal(200);
    return { type: res.headers.get('content-type'), disposition: res.headers.get('content-disposition'), meta: await sharp(Buffer.from(await res.arrayBuffer())).metadata() };
  };

  for (const [format, size, type, extension] of [
    ['jpeg', 'screen', 'image/jpeg', 'jpg'],
    ['webp', 'screen', 'image/webp', 'webp'],
    ['jpeg', 'page', 'image/jpeg', 'jpg'],
  ] as const) {
    it(`format=${format} (size=${size}) is recorded, stored as ${type} and served so by the image and the thumbnail`, async function () {
      const { record } = await createAndWait(
        api.url,
        account.key,
        `url=${encodeURIComponent(site.url(`/echo?fmt=${format}-${size}`))}&format=${format}&quality=60&size=${size}&screen_width=640&screen_height=480`,
      );
      expect(record).to.include({ status: 'finished', format, quality: 60 });
      const [file] = await api.database.db('screenshot_files').where({ screenshot_id: record.id, kind: 'image' });
      expect(file.content_type).to.equal(type);
      expect(file.storage_key).to.match(new RegExp(`/shot-1\\.${extension}$`));
      const stored = await thumbnail(record.id, '&filename=shot');
      expect(stored.type).to.equal(type);
      expect(stored.meta.format).to.equal(format);
      // The echo page's headers run wider than the viewport: a full page is as wide as its content.
      if (size === 'screen') expect({ width: stored.meta.width, height: stored.meta.height }).to.deep.equal({ width: 640, height: 480 });
      const small = await thumbnail(record.id, '&width=160');
      expect({ type: small.type, format: small.meta.format, width: small.meta.width }).to.deep.equal({ type, format, width: 160 });
    });
  }

  it('png stays the default, with the cache key it had (no format in the spec hash)', async function () {
    const { record } = await createAndWait(api.url, account.key, `url=${encodeURIComponent(site.url('/echo?fmt=default'))}`);
    expect(record).to.include({ status: 'finished', format: 'png' });
    expect((await thumbnail(record.id)).type).to.equal('image/png');
  });

  it('refuses an unknown format and a quality out of range with a 400', async function () {
    const bad = await call(api.url, `/screenshot/create?url=${encodeURIComponent(site.url('/echo'))}&format=gif&quality=0`, { key: account.key });
    expect(bad.status).to.equal(400);
    expect(bad.body.fields).to.have.keys('format', 'quality');
  });

  it('a batch with format=webp packs .webp images in its ZIP', async function () {
    const res = await call(api.url, '/batch/create', {
      method: 'POST',
      key: account.key,
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ urls: [site.url('/echo?zip=1'), site.url('/echo?zip=2')], format: 'webp', quality: 50 }),
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const id = res.body.data[0].id;
    let info: any;
    for (const started = Date.now(); Date.now() - started < 200_000;) {
      info = (await call(api.url, `/batch/info?id=${id}`, { key: account.key })).body.data;
      if (info.status === 'finished') break;
      await new Promise((resolve) => setTimeout(resolve, 300));
    }
    expect(info.status).to.equal('finished');
    const files = await unzip(Buffer.from(await (await fetch(info.zip_url)).arrayBuffer()));
    expect([...files.keys()].map((name) => name.split('.').pop())).to.deep.equal(['webp', 'webp']);
    for (const data of files.values()) expect((await sharp(data).metadata()).format).to.equal('webp');
  });
});
