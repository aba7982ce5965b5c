import { expect } from 'chai';
import yauzl from 'yauzl';
import { DATABASE_KINDS } from '../support/databases.js';
import { expectError } from '../support/error-envelope.js';
import { call, createAndWait, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { until } from '../support/wait-until.js';
import { TestSite } from '../support/test-site.js';

/** Prices set for the suite, so that the charge shows each output's part (base 1 + markdown 2 + metadata 3). */
const PRICING = JSON.stringify({ base: 1, markdown: 2, metadata: 3 });

async function zipEntries(zip: Buffer): Promise<Map<string, Buffer>> {
  const file = await yauzl.fromBufferPromise(zip, { lazyEntries: true });
  const out = new Map<string, Buffer>();
  for await (const entry of file.eachEntry()) {
    const chunks: Buffer[] = [];
    for await (const chunk of await file.openReadStreamPromise(entry)) chunks.push(chunk as Buffer);
    out.set(entry.fileName, Buffer.concat(chunks));
  }
  return out;
}

/**
 * markdown=1 and metadata=1 through the API (beyond-v1.md part 5): an embedded farm with a real Chromium, on both
 * databases. The Markdown is a stored file (GET /screenshot/markdown, text/markdown), the metadata the record's
 * `metadata` (GET /screenshot/info); each is priced by its pricing entry; another account reads neither; a batch's
 * ZIP holds a .md and a .json per screenshot, named by the filename template.
 */
for (const kind of DATABASE_KINDS) {
  describe(`extraction through the API (${kind}, chrome)`, function () {
    this.timeout(300_000);
    let site: TestSite;
    let api: TestApi;
    let owner: TestAccount;
    let other: TestAccount;
    let both: Record<string, any>;
    let neither: Record<string, any>;

    before(async function () {
      site = await TestSite.start();
      api = await startTestApi(kind, { SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_PRICING: PRICING }, { agent: true });
      owner = await api.account(1000);
      other = await api.account(1000);
      const article = encodeURIComponent(site.url('/extract/article.html'));
      [both, neither] = await Promise.all([
        createAndWait(api.url, owner.key, `url=${article}&cache=0&markdown=1&metadata=1`).then((r) => r.record),
        createAndWait(api.url, owner.key, `url=${article}&cache=0`).then((r) => r.record),
      ]);
    });
    after(async function () {
      await api?.stop();
      await site?.close();
    });

    it('a record with both: charged base + markdown + metadata, its metadata in info, has_markdown', async function () {
      expect(both).to.include({ status: 'finished', cost: 1 + 2 + 3, markdown: true, markdown_mode: 'main', has_markdown: true });
      expect(both.metadata).to.include({ title: 'Tuning a browser farm | The Farm Journal', lang: 'en-GB', theme_color: '#1a6b3c', content_type: 'text/html' });
      expect(both.metadata.open_graph).to.include({ title: 'Tuning a browser farm', image: 'https://cdn.farm.example/cover.png' });
      expect(both.metadata.colors).to.have.length(5);
      expect(both.timings).to.have.property('extract').that.is.a('number');
    });

    it('GET /screenshot/markdown answers the Markdown as text/markdown; charset=utf-8', async function () {
      const res = await fetch(`${api.url}/screenshot/markdown?id=${both.id}`, { headers: { 'X-API-KEY': owner.key } });
      expect(res.status).to.equal(200);
      expect(res.headers.get('content-type')).to.equal('text/markdown; charset=utf-8');
      const md = await res.text();
      expect(md.split('\n')[0]).to.equal('# Tuning a browser farm');
      expect(md).to.include('| Settle | 610 | 2500 |').and.not.include('Subscribe to the newsletter');
    });

    it('a record without them: charged the base price, metadata null, no Markdown (404)', async function () {
      expect(neither).to.include({ status: 'finished', cost: 1, markdown: false, has_markdown: false, metadata: null });
      const res = await call(api.url, `/screenshot/markdown?id=${neither.id}`, { key: owner.key });
      expect(expectError(res, 404, 'NOT_FOUND').error).to.match(/markdown/i);
    });

    it("another account reads neither the Markdown nor the record's metadata", async function () {
      expect((await call(api.url, `/screenshot/markdown?id=${both.id}`, { key: other.key })).status).to.equal(404);
      expect((await call(api.url, `/screenshot/info?id=${both.id}`, { key: other.key })).status).to.equal(404);
    });

    it('a bad markdown_mode is a 400 naming it, and creates nothing', async function () {
      const before = await api.database.db('screenshots').count({ n: '*' }).first();
      const res = await call(api.url, `/screenshot/create?url=${encodeURIComponent(site.url('/extract/article.html'))}&markdown=1&markdown_mode=summary`, { key: owner.key });
      expect(expectError(res, 400, 'VALIDATION_ERROR').fields).to.have.property('markdown_mode');
      expect(await api.database.db('screenshots').count({ n: '*' }).first()).to.deep.equal(before);
    });

    it("a batch's ZIP holds a .md and a .json beside each image, named by the filename template", async function () {
      const urls = [site.url('/extract/article.html'), site.url('/extract/product.html')];
      const created = await call(api.url, '/batch/create', {
        method: 'POST',
        key: owner.key,
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ urls, filename_template: 'page-{id}', markdown: true, metadata: true, cache: 0 }),
      });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const batchId = created.body.data[0].id;
      const done = await until(
        `batch ${batchId} to end`,
        async () => {
          const b = (await call(api.url, `/batch/info?id=${batchId}`, { key: owner.key })).body.data;
          return b.status !== 'processing' ? b : null;
        },
        240_000,
      );
      expect(done).to.include({ status: 'finished', processed: 2, failed: 0 });
      const res = await fetch(`${api.url}/batch/download?id=${batchId}`, { headers: { 'X-API-KEY': owner.key } });
      expect(res.status).to.equal(200);
      const entries = await zipEntries(Buffer.from(await res.arrayBuffer()));
      const names = [...entries.keys()].sort();
      expect(names).to.have.length(6);
      const ids: number[] = (await api.database.db('screenshots').where({ batch_id: batchId }).orderBy('id').pluck('id')).map(Number);
      expect(names).to.deep.equal(ids.flatMap((id) => [`page-${id}.json`, `page-${id}.md`, `page-${id}.png`]).sort());
      const [articleId, productId] = ids;
      expect(entries.get(`page-${articleId}.md`)!.toString('utf8')).to.match(/^# Tuning a browser farm\n/);
      expect(entries.get(`page-${productId}.md`)!.toString('utf8')).to.match(/^# Kaffeemühle K2\n/);
      expect(JSON.parse(entries.get(`page-${productId}.json`)!.toString('utf8'))).to.include({ lang: 'de', description: 'Die Kaffeemühle K2 mit Kegelmahlwerk aus Edelstahl.' });
    });
  });
}
