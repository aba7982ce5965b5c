import { expect } from 'chai';
import type { NodeStatus } from '../../core/contracts/node-registry.js';
import { chromeNode } from '../support/node-status.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';

/**
 * Admission happens before anything is created: no live node for the browser → 503 naming it;
 * the browser's backlog over SHOTFARM_MAX_BACKLOG → 429 with retry_after. Country routing is said on
 * the record. No agent runs here, so queued jobs stay queued and the backlog is real.
 */
describe('admission and routing', () => {
  let api: TestApi;
  let acct: TestAccount;
  const count = async (): Promise<number> => Number((await api.database.db('screenshots').where({ company_id: acct.companyId }).count('* as n'))[0]?.n);
  const declare = (status: Partial<NodeStatus> & { id: string }): Promise<void> => api.parts.registry.heartbeat(chromeNode(status));

  before(async () => {
    api = await startTestApi('pglite', { SHOTFARM_MAX_BACKLOG: '3', SHOTFARM_PROXY_DE: 'http://proxy-de.test:3128' });
    acct = await api.account(1000);
    // Only a chrome node is live: the contract suites' node offering every browser is replaced.
    await api.parts.registry.remove('contract-tests (no agent)');
    await declare({ id: 'fr-node', countries: ['fr'] });
  });
  after(async () => api?.stop());

  it('503 naming the browser when no live node offers it; nothing created', async () => {
    const res = await call(api.url, '/screenshot/create?url=a.test&browser=firefox', { key: acct.key });
    expect(res.status).to.equal(503);
    expect(res.body).to.include({ success: false, code: 'BROWSER_UNAVAILABLE' });
    expect(res.body.error).to.include('firefox');
    expect(await count()).to.equal(0);
  });

  it('says on the record how each job was routed', async () => {
    const res = await call(api.url, '/screenshot/create?url=a.test&country=fr,de,jp', { key: acct.key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.data.map((r: { country: string; routing: string }) => `${r.country} ${r.routing}`)).to.deep.equal(['fr agent:fr', 'de proxy:de', 'jp any']);
    // Geolocation defaults, timezone and language still follow the country whatever the route.
    expect(res.body.data[1]).to.include({ timezone: 'Europe/Berlin', language: 'de-DE' });
    expect((await api.parts.queue.depth()).chrome).to.equal(3);
  });

  it('429 with retry_after when the backlog is full; nothing created', async () => {
    const before = await count();
    const res = await call(api.url, '/screenshot/create?url=b.test', { key: acct.key });
    expect(res.status).to.equal(429);
    expect(res.body).to.include({ code: 'RATE_LIMIT_EXCEEDED' });
    expect(res.body.retry_after).to.be.a('number').above(0);
    expect(res.headers.get('retry-after')).to.equal(String(res.body.retry_after));
    expect(await count()).to.equal(before);
  });

  it('a node that leaves takes its browser with it; /admin/nodes is admin-only', async () => {
    await api.parts.registry.remove('fr-node');
    expect((await call(api.url, '/admin/nodes', { key: acct.key })).status).to.equal(403);
    const res = await call(api.url, '/screenshot/create?url=c.test', { key: acct.key });
    expect(res.status).to.equal(503);
  });
});
