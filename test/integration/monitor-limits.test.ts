import { expect } from 'chai';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';

const post = (api: TestApi, path: string, key: string, body: unknown) => call(api.url, path, { method: 'POST', key, headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });

/** A 400 in the spec's envelope naming `field`; returns its messages. */
function expectRefused(res: { status: number; body: any }, field: string): string[] {
  expect(res.status, JSON.stringify(res.body)).to.equal(400);
  expect(res.body).to.include({ success: false, code: 'VALIDATION_ERROR' });
  expect(res.body.fields, JSON.stringify(res.body)).to.have.property(field);
  return res.body.fields[field];
}

/**
 * A monitor's schedule and an account's monitors are bounded (issue 25, "loose monitors"): one schedule per
 * monitor, cron in its documented forms, at most SHOTFARM_MONITORS_PER_ACCOUNT monitors and at most
 * SHOTFARM_MONITOR_RUNS_PER_HOUR scheduled runs an hour for an account's active monitors together.
 * No agent: runs stay `processing`; the schedule's admission is under test.
 */
describe('monitor schedules and account limits', function () {
  this.timeout(60_000);
  let api: TestApi;

  before(async () => {
    // Small limits: 3 monitors, 30 runs an hour (an interval of 300 s asks for 12).
    api = await startTestApi('pglite', { SHOTFARM_MONITORS_PER_ACCOUNT: '3', SHOTFARM_MONITOR_RUNS_PER_HOUR: '30' });
  });
  after(async () => api?.stop());

  const monitorsOf = async (account: TestAccount): Promise<number> => Number((await api.database.db('monitors').where({ company_id: account.companyId }).count('* as n'))[0]?.n);

  it('refuses interval and cron together, and a cron of other than 5 or 6 fields, creating nothing', async () => {
    const owner = await api.account(100);
    expectRefused(await post(api, '/monitor/create', owner.key, { url: 'https://example.test/', interval: 600, cron: '0 * * * *' }), 'cron');
    for (const cron of ['0 0 * * * * *', '0 0 1 1 * 2030', '@daily', '0 *', '* * * *']) expectRefused(await post(api, '/monitor/create', owner.key, { url: 'https://example.test/', cron }), 'cron');
    expect(await monitorsOf(owner)).to.equal(0);
    // The documented forms: five fields, or six with seconds first.
    for (const cron of ['0 */6 * * *', '0 0 */6 * * *']) {
      const res = await post(api, '/monitor/create', owner.key, { url: 'https://example.test/', cron });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      // A cron expression's interval is its shortest gap between runs: six hours here.
      expect(res.body.data.interval).to.equal(6 * 3600);
    }
  });

  it('an update giving both interval and cron is refused and changes nothing', async () => {
    const owner = await api.account(100);
    const created = (await post(api, '/monitor/create', owner.key, { url: 'https://example.test/', interval: 3600 })).body.data;
    expectRefused(await post(api, '/monitor/update', owner.key, { id: created.id, interval: 1800, cron: '0 * * * *' }), 'cron');
    expect((await call(api.url, `/monitor/info?id=${created.id}`, { key: owner.key })).body.data).to.deep.equal(created);
  });

  it('an account has at most SHOTFARM_MONITORS_PER_ACCOUNT monitors, paused ones included: one more is a 403 that creates nothing', async () => {
    const owner = await api.account(100);
    const ids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(api, '/monitor/create', owner.key, { url: `https://example.test/${i}`, interval: 3600 });
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      ids.push(res.body.data.id);
    }
    await post(api, '/monitor/pause', owner.key, { id: ids[0] });
    const refused = await post(api, '/monitor/create', owner.key, { url: 'https://example.test/more', interval: 3600 });
    expect(refused.status, JSON.stringify(refused.body)).to.equal(403);
    expect(refused.body).to.include({ success: false });
    expect(refused.body.error).to.match(/already has 3 monitors/);
    expect(await monitorsOf(owner)).to.equal(3);
    // Another account is not held by this one's monitors.
    const other = await api.account(100);
    expect((await post(api, '/monitor/create', other.key, { url: 'https://example.test/', interval: 3600 })).status).to.equal(200);
    // Deleting one makes room again.
    await post(api, '/monitor/delete', owner.key, { id: ids[1] });
    expect((await post(api, '/monitor/create', owner.key, { url: 'https://example.test/again', interval: 3600 })).status).to.equal(200);
  });

  it("an account's active monitors ask for at most SHOTFARM_MONITOR_RUNS_PER_HOUR runs an hour: create, update and resume beyond it are a 400 naming the schedule", async () => {
    const owner = await api.account(100);
    const every5 = (await post(api, '/monitor/create', owner.key, { url: 'https://example.test/a', interval: 300 })).body.data;
    const every450 = (await post(api, '/monitor/create', owner.key, { url: 'https://example.test/b', interval: 450 })).body.data;
    // 12 + 8 asked for: 12 more (a third monitor at 300 s, or a cron every 5 minutes) would make 32.
    const [tooOften] = expectRefused(await post(api, '/monitor/create', owner.key, { url: 'https://example.test/c', interval: 300 }), 'interval');
    expect(tooOften).to.match(/asks for 12 runs an hour.*already ask for 20 of the 30 allowed/);
    expectRefused(await post(api, '/monitor/create', owner.key, { url: 'https://example.test/c', cron: '*/5 * * * *' }), 'cron');
    expect(await monitorsOf(owner)).to.equal(2);

    // An update is counted without the monitor's own old schedule: 450 s → 300 s makes 24.
    const faster = await post(api, '/monitor/update', owner.key, { id: every450.id, interval: 300 });
    expect(faster.status, JSON.stringify(faster.body)).to.equal(200);
    const third = (await post(api, '/monitor/create', owner.key, { url: 'https://example.test/d', interval: 3600 })).body.data;
    expect(third.id, 'one run an hour still fits: 25 of 30').to.be.a('number');
    const before = (await call(api.url, `/monitor/info?id=${third.id}`, { key: owner.key })).body.data;
    // 25 asked for: a cron every 5 minutes instead of hourly (12 instead of 1) is refused, and changes nothing.
    expectRefused(await post(api, '/monitor/update', owner.key, { id: third.id, cron: '*/5 * * * *' }), 'cron');
    expect((await call(api.url, `/monitor/info?id=${third.id}`, { key: owner.key })).body.data).to.deep.equal(before);

    // A paused monitor asks for nothing: its place can be taken, and resuming it is then refused.
    await post(api, '/monitor/pause', owner.key, { id: every5.id });
    const taken = await post(api, '/monitor/update', owner.key, { id: third.id, interval: 300 });
    expect(taken.status, JSON.stringify(taken.body)).to.equal(200);
    expectRefused(await post(api, '/monitor/resume', owner.key, { id: every5.id }), 'interval');
    expect((await call(api.url, `/monitor/info?id=${every5.id}`, { key: owner.key })).body.data.status).to.equal('paused');
  });
});
