import { expect } from 'chai';
import { DATABASE_KINDS } from '../support/databases.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';

/**
 * What a capture blocked, as its record shows it through the API (beyond-v1.md part 6): an embedded farm with
 * a real Chromium, on both databases. `blocked` counts per category on every finished record, zeros included.
 */
for (const kind of DATABASE_KINDS) {
  describe(`blocked counts on the record (${kind}, chrome)`, function () {
    this.timeout(240_000);
    let site: TestSite;
    let api: TestApi;
    let account: TestAccount;

    before(async function () {
      site = await TestSite.start();
      api = await startTestApi(kind, { SHOTFARM_AGENT_BROWSERS: 'chrome' }, { agent: true });
      account = await api.account(1000);
    });
    after(async function () {
      await api?.stop();
      await site?.close();
    });

    async function finished(query: string): Promise<Record<string, unknown>> {
      const res = await call(api.url, `/screenshot/create?url=${encodeURIComponent(site.url('/adslots/page.html'))}&cache=0${query}`, { key: account.key });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      for (;;) {
        const info = await call(api.url, `/screenshot/info?id=${Number(res.body.data[0].id)}&wait=60`, { key: account.key });
        expect(info.status, JSON.stringify(info.body)).to.equal(200);
        if (info.body.data.status !== 'processing') return info.body.data as Record<string, unknown>;
      }
    }

    it('block_urls: the ad frame is not loaded and counts under urls; the option shows on the record', async function () {
      const record = await finished(`&block_urls=${encodeURIComponent('*/adserver/*')}`);
      expect(record.status).to.equal('finished');
      expect(record.blocked).to.deep.equal({ ads: 0, trackers: 0, chats: 0, social: 0, resources: 0, urls: 1 });
      expect(record.block_urls).to.deep.equal(['*/adserver/*']);
    });

    it('a capture that blocks nothing says so with zeros', async function () {
      const record = await finished('');
      expect(record.blocked).to.deep.equal({ ads: 0, trackers: 0, chats: 0, social: 0, resources: 0, urls: 0 });
    });
  });
}
