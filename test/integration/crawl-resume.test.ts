import { expect } from 'chai';
import { startControlPlane, type ControlPlane } from '../../api/control-plane.js';
import { createLogger } from '../../core/logger.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';

/**
 * A control plane that stops (or dies) between recording a crawl page's result and advancing the crawl
 * must not leave the crawl waiting forever: the next control plane resumes it at start.
 */
describe('crawls resume after a control plane restart', function () {
  this.timeout(60_000);
  let api: TestApi;
  let second: ControlPlane | null = null;

  before(async () => {
    // No agent: records stay `processing` until the test gives them a result.
    api = await startTestApi('postgres');
  });
  after(async () => {
    await second?.stop();
    await api?.stop();
  });

  it('counts a page that ended while no control plane listened, and creates the next pages', async () => {
    const acct = await api.account(100);
    const created = await call(api.url, '/crawl/create', {
      method: 'POST',
      key: acct.key,
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ url: 'https://resume.test/', domain: 'resume.test', max_urls: 3 }),
    });
    expect(created.status, JSON.stringify(created.body)).to.equal(200);
    const crawlId = created.body.data.id as number;
    const db = api.database.db;
    const [first] = (await db('screenshots').where({ crawl_id: crawlId }).pluck('id')).map(Number);

    // The control plane goes away; meanwhile the first page's result is recorded (as a recorder whose
    // crawl listener never ran would leave it).
    await api.plane.stop();
    await db('screenshots')
      .where({ id: first })
      .update({ status: 'finished', links: JSON.stringify(['https://resume.test/a', 'https://resume.test/b', 'https://elsewhere.test/']), finished_at: db.fn.now() });

    second = await startControlPlane(api.config, { generateBootstrapKey: false, container: api.container, logger: createLogger('silent') });
    const deadline = Date.now() + 20_000;
    // The page is counted first, then the next pages are created one by one: wait for both.
    const pages = async (): Promise<number> => Number((await db('screenshots').where({ crawl_id: crawlId }).count('* as n').first())?.n ?? 0);
    while (((await pages()) < 3 || Number((await db('crawls').where({ id: crawlId }).first()).processed) < 1) && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 100));
    }
    const crawl = await db('crawls').where({ id: crawlId }).first();
    expect(crawl).to.include({ status: 'processing', processed: 1 });
    expect(Number(crawl.total_discovered)).to.equal(3);
    const urls = await db('screenshots').where({ crawl_id: crawlId }).orderBy('id').pluck('url');
    expect(urls).to.deep.equal(['https://resume.test/', 'https://resume.test/a', 'https://resume.test/b']);
  });
});
