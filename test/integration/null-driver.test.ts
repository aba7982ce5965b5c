import { expect } from 'chai';
import { NULL_DRIVER_PNG } from '../../drivers/null/null-driver.js';
import { NatsSandbox, NATS_URL } from '../contracts/support/nats-sandbox.js';
import { configProblems } from '../support/config-problems.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';

/**
 * The null driver (benchmarks and tests only): refused unless explicitly allowed; when allowed, an agent
 * with it finishes captures with the stored image, through the whole farm (api, queue, storage, recorder).
 */
describe('null driver: never runs unless explicitly allowed', () => {
  it('SHOTFARM_DRIVER=null without SHOTFARM_ALLOW_NULL_DRIVER=true is refused, naming the setting to set', () => {
    for (const allow of [undefined, 'false', '0']) {
      const problems = configProblems({ SHOTFARM_DRIVER: 'null', ...(allow === undefined ? {} : { SHOTFARM_ALLOW_NULL_DRIVER: allow }) });
      expect(problems.join('\n')).to.match(/^SHOTFARM_DRIVER: null is the benchmark-and-test-only driver.*SHOTFARM_ALLOW_NULL_DRIVER=true/m);
    }
  });
});

const DELAY_MS = 300;
const URLS = 5;

for (const mode of ['embedded', 'nats'] as const) {
  describe(`null driver: captures finish with the stored image (${mode})`, function () {
    this.timeout(120_000);
    const sandbox = new NatsSandbox();
    let api: TestApi;

    before(async () => {
      const nats: Record<string, string> = mode === 'nats' ? { NATS_URL, SHOTFARM_NATS_PREFIX: sandbox.prefix() } : {};
      api = await startTestApi(
        mode === 'nats' ? 'postgres' : 'pglite',
        {
          SHOTFARM_DRIVER: 'null',
          SHOTFARM_ALLOW_NULL_DRIVER: 'true',
          SHOTFARM_NULL_DRIVER_DELAY_MS: String(DELAY_MS),
          SHOTFARM_AGENT_SLOTS: String(URLS),
          SHOTFARM_AGENT_BROWSERS: 'chrome,firefox',
          ...nats,
        },
        { agent: true },
      );
    });
    after(async () => {
      await api?.stop();
      if (mode === 'nats') await sandbox.deleteStreams();
    });

    it(`${URLS} captures finish after the configured delay, each image the stored PNG byte for byte`, async () => {
      const acct = await api.account(100);
      const started = Date.now();
      const created = await Promise.all(
        Array.from({ length: URLS }, async (_, i) => {
          const res = await call(api.url, `/screenshot/create?url=${encodeURIComponent(`http://null-driver.test/${i}`)}&browser=${i % 2 ? 'firefox' : 'chrome'}`, { key: acct.key });
          expect(res.status, JSON.stringify(res.body)).to.equal(200);
          return res.body.data[0] as { id: number };
        }),
      );
      for (const { id } of created) {
        const info = (await call(api.url, `/screenshot/info?id=${id}&wait=30`, { key: acct.key })).body.data;
        expect(info.status, info.error).to.equal('finished');
        expect(info.user_agent).to.equal('shotfarm null driver');
        const res = await fetch(`${api.url}/screenshot/thumbnail?id=${id}`, { headers: { 'X-API-KEY': acct.key } });
        expect(res.status).to.equal(200);
        expect(Buffer.from(await res.arrayBuffer()).equals(NULL_DRIVER_PNG), 'the answer is the stored image, byte for byte').to.equal(true);
      }
      // None answered before its delay (how fast they ran is make bench-farm's business, not a test's).
      expect(Date.now() - started).to.be.at.least(DELAY_MS);
      expect(api.agent?.status().jobsDone).to.equal(URLS);
    });
  });
}
