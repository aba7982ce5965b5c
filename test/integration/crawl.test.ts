import { expect } from 'chai';
import type { Knex } from 'knex';
import { DATABASE_KINDS } from '../support/databases.js';
import { LinkGraphSite } from '../support/link-graph-site.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';

/**
 * Crawls with the real embedded agent and Chromium against a local 60-page link graph. Each page costs
 * 1 credit (a viewport capture), so charges are counted in pages.
 */

/** One page of one host at a time: with two browser slots, a crawl ignoring the limit would show 2. */
const HOST_LIMIT = 1;
/** A small viewport keeps captures fast; the graph's pages are a title and a list. */
const OPTIONS = { screen_width: 320, screen_height: 240 };

async function post(api: TestApi, path: string, key: string, body: unknown): Promise<{ status: number; body: any }> {
  return call(api.url, path, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
}

async function info(api: TestApi, key: string, id: number): Promise<any> {
  const res = await call(api.url, `/crawl/info?id=${id}`, { key });
  expect(res.status, JSON.stringify(res.body)).to.equal(200);
  return res.body.data;
}

/** Polls until `done` holds, or fails naming what it waited for. */
async function waitUntil<T>(what: string, read: () => Promise<T>, done: (v: T) => boolean, timeoutMs = 90_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value).slice(0, 500)}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

/** A crawl that has ended and has no page left in processing. */
async function settled(api: TestApi, key: string, id: number): Promise<any> {
  return waitUntil(
    `crawl ${id} to settle`,
    () => info(api, key, id),
    (c) => c.status !== 'processing' && c.screenshots.every((s: any) => s.status !== 'processing'),
  );
}

/** Credits debited for these screenshots, from the ledger. */
async function debited(db: Knex, ids: number[]): Promise<{ count: number; credits: number }> {
  const rows = await db('credit_ledger').whereIn('screenshot_id', ids).select('delta');
  return { count: rows.length, credits: -rows.reduce((sum, r) => sum + Number(r.delta), 0) };
}

async function balanceOf(api: TestApi, key: string): Promise<number> {
  return (await call(api.url, '/account/info', { key })).body.data.balance;
}

// Both databases: embedded PGlite has one connection, Postgres a pool where page results of one crawl
// really are applied concurrently.
for (const kind of DATABASE_KINDS)
  describe(`crawl jobs on ${kind} (embedded agent, real Chromium, local link graph)`, function () {
    this.timeout(180_000);
    let api: TestApi;
    let site: LinkGraphSite;
    let owner: TestAccount;
    let firstCrawl: any;

    before(async () => {
      site = await LinkGraphSite.start();
      api = await startTestApi(kind, { SHOTFARM_AGENT_SLOTS: '2', SHOTFARM_AGENT_BROWSERS: 'chrome', SHOTFARM_CRAWL_HOST_CONCURRENCY: String(HOST_LIMIT) }, { agent: true });
      owner = await api.account(1000);
    });
    after(async () => {
      await api?.stop();
      await site?.close();
    });

    it('visits max_urls unique same-domain pages breadth first, counts what it found and charges what it captured', async () => {
      const before = await balanceOf(api, owner.key);
      const created = await post(api, '/crawl/create', owner.key, { url: `${site.pageUrl(0)}#intro`, domain: 'localhost', max_urls: 25, ...OPTIONS });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      expect(created.body.data).to.include({ status: 'processing', domain: 'localhost', start_url: site.pageUrl(0), max_urls: 25 });
      expect(created.body.data.started).to.be.a('number').above(0);

      const crawl = await settled(api, owner.key, created.body.data.id);
      firstCrawl = crawl;
      expect(crawl).to.include({ status: 'finished', processed: 25, failed: 0 });
      expect(crawl.finished).to.be.at.least(crawl.started);
      expect(crawl).not.to.have.property('error');

      const shots: any[] = crawl.screenshots;
      expect(shots).to.have.length(25);
      for (const s of shots) expect(s).to.include({ status: 'finished', screen_width: 320, screen_height: 240, cost: 1 });
      const pages = shots.map((s) => site.pageOf(s.url));
      expect(pages, 'every screenshot is a graph page without fragment').not.to.include(null);
      expect(new Set(pages).size, 'no page twice').to.equal(25);
      expect(pages[0]).to.equal(0);
      expect(
        pages.some((p) => site.hostOf(p as number) === 'sub.localhost'),
        'subdomain pages are followed',
      ).to.equal(true);

      // Breadth first: the start page's links come before anything found later, and every page was reached
      // through a link of a page visited before it.
      for (const t of site.targetsOf(0)) expect(pages).to.include(t);
      pages.slice(1).forEach((p, i) =>
        expect(
          pages.slice(0, i + 1).some((q) => site.targetsOf(q as number).includes(p as number)),
          `page ${p} was linked`,
        ).to.equal(true),
      );

      // total_discovered: the start page and every same-domain page the visited pages link to, fragments folded.
      const expected = new Set<number>([0]);
      for (const p of pages) for (const link of site.linksOf(p as number)) if (link.page !== null) expected.add(link.page);
      expect(expected.size).to.be.above(25);
      expect(crawl.total_discovered).to.equal(expected.size);

      // The browser asked for exactly those pages, once each, and never for another host.
      const pageRequests = site.requests.filter((r) => r.path.startsWith('/p/'));
      expect(
        pageRequests.map((r) => r.host).filter((h) => h !== 'localhost' && h !== 'sub.localhost'),
        'other hosts are never visited',
      ).to.deep.equal([]);
      expect(pageRequests.map((r) => `${r.host}${r.path}`).sort()).to.deep.equal(pages.map((p) => `${site.hostOf(p as number)}/p/${p}`).sort());
      for (const [host, peak] of site.maxInFlight()) expect(peak, `pages of ${host} in flight at once`).to.be.at.most(HOST_LIMIT);

      const ids = shots.map((s) => s.id);
      expect(await debited(api.database.db, ids)).to.deep.equal({ count: 25, credits: 25 });
      expect(before - (await balanceOf(api, owner.key))).to.equal(25);
    });

    it('max_urls 1 captures the start page only; the list is newest first', async () => {
      const created = await post(api, '/crawl/create', owner.key, { url: site.pageUrl(52), domain: 'localhost', max_urls: 1, ...OPTIONS });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const crawl = await settled(api, owner.key, created.body.data.id);
      expect(crawl).to.include({ status: 'finished', processed: 1, failed: 0, start_url: site.pageUrl(52) });
      expect(crawl.screenshots.map((s: any) => s.url)).to.deep.equal([site.pageUrl(52)]);
      expect(crawl.total_discovered).to.equal(1 + site.targetsOf(52).length);
      const list = await call(api.url, '/crawl/list', { key: owner.key });
      expect(list.body.data.map((c: any) => c.id)).to.deep.equal([crawl.id, firstCrawl.id]);
      expect(list.body.data[0]).not.to.have.property('screenshots');
      const second = await call(api.url, '/crawl/list?limit=1&offset=1', { key: owner.key });
      expect(second.body.data.map((c: any) => c.id)).to.deep.equal([firstCrawl.id]);
    });

    it('cancel stops a running crawl: queued pages are dropped uncharged and nothing more is created', async () => {
      const acct = await api.account(1000);
      const created = await post(api, '/crawl/create', acct.key, { url: site.pageUrl(20), domain: 'localhost', max_urls: 50, ...OPTIONS });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const id = created.body.data.id;
      await waitUntil(
        'two pages',
        () => info(api, acct.key, id),
        (c) => c.processed >= 2,
      );

      // Two single screenshots (normal tier, ahead of the crawl's bulk tier) hold both browser slots, so the
      // crawl's next pages wait in the queue.
      const slowMs = 6000;
      for (const n of [1, 2]) {
        const res = await call(api.url, `/screenshot/create?url=${encodeURIComponent(site.url(`/slow?ms=${slowMs}&n=${n}`))}`, { key: acct.key });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
      }
      await waitUntil(
        'both slots busy and a crawl page queued',
        async () => ({ slow: site.slowRequests(), depth: (await api.parts.queue.depth()).chrome }),
        (v) => v.slow === 2 && v.depth >= 1,
        30_000,
      );

      const cancelled = await post(api, '/crawl/cancel', acct.key, { id });
      expect(cancelled.status, JSON.stringify(cancelled.body)).to.equal(200);
      expect(cancelled.body.data).to.include({ id, status: 'cancelled' });
      expect((await api.parts.queue.depth()).chrome, 'queued pages left the queue').to.equal(0);
      const atCancel = (await info(api, acct.key, id)).screenshots.map((s: any) => s.id);

      const crawl = await settled(api, acct.key, id);
      // The slow screenshots end after the cancel; had the crawl gone on, their freed slots would take new pages.
      await waitUntil(
        'the slow screenshots',
        async () => site.slowRequests(),
        (n) => n === 0,
        30_000,
      );
      await new Promise((r) => setTimeout(r, 1500));
      const after = await info(api, acct.key, id);
      expect(after.status).to.equal('cancelled');
      expect(
        after.screenshots.map((s: any) => s.id),
        'no page created after cancel',
      ).to.deep.equal(atCancel);

      const dropped = crawl.screenshots.filter((s: any) => s.status === 'error');
      expect(dropped.length).to.be.at.least(1);
      for (const s of dropped) {
        expect(s.error).to.match(/cancelled/i);
        expect(s.cost).to.equal(0);
        expect(
          site.requests.some((r) => r.path === new URL(s.url).pathname && r.host === new URL(s.url).hostname),
          `${s.url} never loaded`,
        ).to.equal(false);
      }
      const finished = after.screenshots.filter((s: any) => s.status === 'finished');
      expect(after.processed).to.equal(finished.length);
      expect(after.failed).to.equal(dropped.length);
      expect(
        await debited(
          api.database.db,
          after.screenshots.map((s: any) => s.id),
        ),
      ).to.deep.equal({ count: finished.length, credits: finished.length });
    });

    it('ends in error with a clear message when the balance runs out, having charged what it captured', async () => {
      const acct = await api.account(5);
      const created = await post(api, '/crawl/create', acct.key, { url: site.pageUrl(0), domain: 'localhost', max_urls: 25, ...OPTIONS });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const crawl = await settled(api, acct.key, created.body.data.id);
      expect(crawl.status).to.equal('error');
      expect(crawl.error).to.match(/^Insufficient balance: the crawl stopped after 5 page\(s\)/);
      expect(crawl).to.include({ processed: 5, failed: 0 });
      expect(crawl.screenshots).to.have.length(5);
      expect(
        await debited(
          api.database.db,
          crawl.screenshots.map((s: any) => s.id),
        ),
      ).to.deep.equal({ count: 5, credits: 5 });
      expect(await balanceOf(api, acct.key)).to.equal(0);
    });

    it('answers 400 naming the field for bad input, and creates nothing', async () => {
      const acct = await api.account(1000);
      const good = { url: site.pageUrl(0), domain: 'localhost', max_urls: 5 };
      const cases: [object, string][] = [
        [{ ...good, domain: 'local host' }, 'domain'],
        [{ ...good, domain: 'http://localhost/' }, 'domain'],
        [{ ...good, max_urls: 0 }, 'max_urls'],
        [{ ...good, max_urls: 1001 }, 'max_urls'],
        [{ ...good, domain: 'example.com' }, 'url'],
        [{ ...good, url: `http://sublocalhost:${new URL(site.pageUrl(0)).port}/p/1` }, 'url'],
        [{ ...good, url: 'javascript:alert(1)' }, 'url'],
        [{ ...good, screen_width: 0 }, 'screen_width'],
        [{ ...good, country: ['us', 'fr'] }, 'country'],
        [{}, 'max_urls'],
      ];
      for (const [body, field] of cases) {
        const res = await post(api, '/crawl/create', acct.key, body);
        expect(res.status, JSON.stringify(body)).to.equal(400);
        expect(res.body.code).to.equal('VALIDATION_ERROR');
        expect(res.body.fields, JSON.stringify(body)).to.have.property(field);
      }
      const db = api.database.db;
      expect(Number((await db('crawls').where({ company_id: acct.companyId }).count('* as n').first())?.n)).to.equal(0);
      expect(Number((await db('screenshots').where({ company_id: acct.companyId }).count('* as n').first())?.n)).to.equal(0);
    });

    it("keeps accounts apart: another account's crawl answers 404 and cannot be cancelled", async () => {
      const other = await api.account(1000);
      expect((await call(api.url, `/crawl/info?id=${firstCrawl.id}`, { key: other.key })).status).to.equal(404);
      expect((await call(api.url, `/crawl/cancel?id=${firstCrawl.id}`, { key: other.key, method: 'POST' })).status).to.equal(404);
      expect((await call(api.url, '/crawl/list', { key: other.key })).body.data).to.deep.equal([]);
      // The owner's cancel of an ended crawl (id in the query) answers it unchanged.
      const own = await call(api.url, `/crawl/cancel?id=${firstCrawl.id}`, { key: owner.key, method: 'POST' });
      expect(own.status).to.equal(200);
      expect(own.body.data).to.include({ id: firstCrawl.id, status: 'finished', processed: 25 });
    });
  });
