import { expect } from 'chai';
import { chromiumMainPids } from '../support/process-census.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';
import { until } from '../support/wait-until.js';

/**
 * Idle memory with real Chromium: an embedded service (control plane and agent in this process) with a
 * 1 s idle timeout closes the browsers a burst started, down to its warm minimum, gives the memory back,
 * and the next capture still finishes. The browsers are this process's children, so they are counted exactly.
 */
for (const { warm, slots } of [
  { warm: 1, slots: 3 },
  { warm: 0, slots: 2 },
]) {
  describe(`idle browsers of an embedded service (warm minimum ${warm}, ${slots} slots, 1 s idle timeout)`, function () {
    this.timeout(180_000);
    let site: TestSite;
    let api: TestApi;
    let account: TestAccount;

    before(async () => {
      site = await TestSite.start();
      api = await startTestApi(
        'pglite',
        {
          SHOTFARM_AGENT_BROWSERS: 'chrome',
          SHOTFARM_AGENT_SLOTS: String(slots),
          SHOTFARM_POOL_IDLE_SECONDS: '1',
          SHOTFARM_POOL_WARM_BROWSERS: String(warm),
        },
        { agent: true },
      );
      account = await api.account(1000);
    });
    after(async () => {
      await api?.stop();
      await site?.close();
    });

    const capture = async (tag: string, delay = 0): Promise<string> => {
      const created = await call(api.url, `/screenshot/create?url=${encodeURIComponent(site.url(`/target.html?idle=${tag}`))}&delay=${delay}&cache=0`, { key: account.key });
      expect(created.status, JSON.stringify(created.body)).to.equal(200);
      const id = created.body.data[0].id as number;
      const info = await call(api.url, `/screenshot/info?id=${id}&wait=60`, { key: account.key });
      return info.body.data.status as string;
    };

    it('a burst starts a browser per slot; idle, only the warm minimum is left; the next capture finishes', async () => {
      // Captures that overlap: each slot holds a browser of its own (1 capture per browser by default).
      let most = 0;
      let bursting = true;
      const watch = (async () => {
        while (bursting) {
          most = Math.max(most, (await chromiumMainPids()).length);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
      })();
      const statuses = await Promise.all(Array.from({ length: slots }, (_, n) => capture(`burst-${n}`, 2)));
      bursting = false;
      await watch;
      expect(statuses).to.deep.equal(Array.from({ length: slots }, () => 'finished'));
      expect(most).to.equal(slots);
      const busyRss = api.agent!.status().rssBytes;
      expect(busyRss).to.be.a('number').and.greaterThan(0);

      // 1 s idle timeout, checked every 250 ms: well within 15 s even on a loaded machine.
      const left = await until(
        `Chromium down to ${warm} browser(s)`,
        async () => {
          const pids = await chromiumMainPids();
          return pids.length === warm ? pids : undefined;
        },
        15_000,
      );
      // Several timeouts later the warm browser is the same process: kept, not closed and relaunched.
      await new Promise((resolve) => setTimeout(resolve, 2_500));
      expect(await chromiumMainPids()).to.deep.equal(left);
      // The memory is given back: the closed browsers' share of the tree is gone from the node's reading.
      const idleRss = api.agent!.status().rssBytes;
      expect(idleRss).to.be.a('number').and.lessThan(busyRss!);

      expect(await capture('after-idle')).to.equal('finished');
    });

    it("the node reports its process tree's memory to the registry (what /admin/nodes lists)", async () => {
      const [node] = await api.parts.registry.list();
      expect(node?.rssBytes)
        .to.be.a('number')
        .and.greaterThan(10 * 1024 * 1024);
    });
  });
}
