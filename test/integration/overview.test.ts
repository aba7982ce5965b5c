import { expect } from 'chai';
import { generateApiKey, insertApiKey } from '../../api/accounts/api-keys.js';
import { ADMIN_KEY, TEST_PLANS, plansEnv, removePlansFiles } from '../support/billing-fixtures.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { TestSite } from '../support/test-site.js';

type Init = RequestInit & { key?: string };

/** Every key of the spec's Dashboard overview, at each level. */
const DASHBOARD_KEYS = ['account', 'batches', 'billing', 'recent_screenshots', 'usage'];
const ACCOUNT_KEYS = ['balance', 'company_id', 'company_name'];
const USAGE_KEYS = ['error', 'finished', 'processing', 'screenshots_this_month', 'total_screenshots'];
const BATCH_KEYS = ['error', 'finished', 'processing', 'total'];
const RECENT_KEYS = ['cost', 'created_at', 'error', 'finished_at', 'id', 'status', 'url'];
const PLAN_USAGE_KEYS = ['monthly_limit', 'remaining', 'screenshots_this_month'];
/** Every key of the spec's Admin overview. */
const ADMIN_KEYS = ['screenshots', 'top_users', 'totals'];
const TOTALS_KEYS = ['active_clients', 'batches', 'companies', 'screenshots', 'users'];
const TOP_USER_KEYS = ['company_name', 'email', 'screenshots', 'user_id'];

/** A page that is never captured: the egress guard refuses the link-local metadata address, so the record ends in error. */
const BLOCKED_URL = 'http://169.254.169.254/latest/meta-data/';

const keys = (o: object): string[] => Object.keys(o).sort();

describe('dashboard and admin overviews, from real screenshots of the embedded farm', function () {
  this.timeout(240_000);
  let api: TestApi;
  let site: TestSite;
  let acct: TestAccount;
  let userToken: string;

  const overview = async (init: Init): Promise<any> => {
    const res = await call(api.url, '/dashboard/overview', init);
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    expect(res.body.success).to.equal(true);
    return res.body.data;
  };
  const admin = async (): Promise<any> => {
    const res = await call(api.url, '/admin/overview', { key: ADMIN_KEY });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return res.body.data;
  };
  const create = async (key: string, url: string, extra = ''): Promise<{ id: number; cost: number }> => {
    const res = await call(api.url, `/screenshot/create?url=${encodeURIComponent(url)}${extra}`, { key });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    return { id: Number(res.body.data[0].id), cost: Number(res.body.data[0].cost) };
  };
  /** Waits until none of the records is processing. */
  const settled = async (ids: number[]): Promise<void> => {
    const deadline = Date.now() + 120_000;
    while (Date.now() < deadline) {
      const open = await api.database.db('screenshots').whereIn('id', ids).where({ status: 'processing' }).count('* as n').first();
      if (Number(open?.n) === 0) return;
      await new Promise((r) => setTimeout(r, 250));
    }
    throw new Error(`screenshots ${ids.join(', ')} still processing`);
  };
  const userIdOf = (token: string): number => Number(JSON.parse(Buffer.from(token.split('.')[1] as string, 'base64url').toString()).sub);

  before(async () => {
    site = await TestSite.start();
    api = await startTestApi(
      'pglite',
      {
        ...plansEnv(),
        SHOTFARM_AGENT_BROWSERS: 'chrome',
        // The guard is on, so a capture of a metadata address really ends in error; the test site is allowed.
        SHOTFARM_ALLOW_PRIVATE_TARGETS: 'false',
        SHOTFARM_PRIVATE_TARGET_ALLOWLIST: '127.0.0.1/32',
      },
      { agent: true },
    );
    acct = await api.account(100);
    userToken = await api.userToken(acct.companyId);
  });
  after(async () => {
    await api?.stop();
    await site?.close();
    removePlansFiles();
  });

  it("answers a new account in the spec's Dashboard overview shape: its balance, no plan, nothing counted", async () => {
    const data = await overview({ key: acct.key });
    expect(keys(data)).to.deep.equal(DASHBOARD_KEYS);
    expect(keys(data.account)).to.deep.equal(ACCOUNT_KEYS);
    expect(data.account).to.include({ company_id: acct.companyId, balance: 100 });
    expect(data.account.company_name).to.be.a('string').and.not.equal('');
    expect(data.billing).to.equal(null);
    expect(keys(data.usage)).to.deep.equal(USAGE_KEYS);
    expect(keys(data.batches)).to.deep.equal(BATCH_KEYS);
    expect(data.usage).to.deep.equal({ total_screenshots: 0, screenshots_this_month: 0, processing: 0, finished: 0, error: 0 });
    expect(data.batches).to.deep.equal({ total: 0, processing: 0, finished: 0, error: 0 });
    expect(data.recent_screenshots).to.deep.equal([]);
    // The same account through a dashboard session.
    expect(await overview({ headers: { Authorization: `Bearer ${userToken}` } })).to.deep.equal(data);
  });

  it("counts screenshots as they are created, then as they finish or fail; the balance is the ledger's", async () => {
    // delay=4 holds the capture in processing for four seconds after the page loaded.
    const slow = await create(acct.key, site.url('/echo?overview=slow'), '&delay=4');
    const quick = await create(acct.key, site.url('/echo?overview=quick'));
    const blocked = await create(acct.key, BLOCKED_URL);
    const ids = [slow.id, quick.id, blocked.id];

    const during = await overview({ key: acct.key });
    expect(during.usage.total_screenshots).to.equal(3);
    expect(during.usage.screenshots_this_month).to.equal(3);
    expect(during.usage.processing, JSON.stringify(during.usage)).to.be.at.least(1);
    expect(during.usage.processing + during.usage.finished + during.usage.error).to.equal(3);
    expect(during.recent_screenshots.map((s: any) => s.id)).to.deep.equal([...ids].reverse());

    await settled(ids);
    const after = await overview({ key: acct.key });
    expect(after.usage).to.deep.equal({ total_screenshots: 3, screenshots_this_month: 3, processing: 0, finished: 2, error: 1 });
    // The finished captures were charged, the failed one was not; the balance is the ledger's sum.
    expect(after.account.balance).to.equal(100 - slow.cost - quick.cost);
    const ledger = await api.database.db('credit_ledger').where({ company_id: acct.companyId }).sum('delta as total').first();
    expect(Number(ledger?.total)).to.equal(after.account.balance);

    const recent = after.recent_screenshots;
    expect(recent).to.have.length(3);
    for (const s of recent) expect(keys(s)).to.deep.equal(RECENT_KEYS);
    const [failed, finishedQuick, finishedSlow] = recent;
    expect(finishedSlow).to.include({ id: slow.id, url: site.url('/echo?overview=slow'), status: 'finished', cost: slow.cost, error: '' });
    expect(finishedQuick).to.include({ id: quick.id, status: 'finished', error: '' });
    expect(failed).to.include({ id: blocked.id, status: 'error', cost: 0 });
    expect(failed.error).to.match(/Blocked/);
    for (const s of recent) {
      expect(new Date(s.created_at).getTime()).to.be.closeTo(Date.now(), 300_000);
      expect(new Date(s.finished_at).getTime()).to.be.at.least(new Date(s.created_at).getTime());
    }
  });

  it('counts batches by status', async () => {
    const res = await call(api.url, '/batch/create', {
      key: acct.key,
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ urls: [site.url('/echo?overview=batch')] }),
    });
    expect(res.status, JSON.stringify(res.body)).to.equal(200);
    const batchId = Number(res.body.data[0].id);
    const during = await overview({ key: acct.key });
    expect(during.batches.total).to.equal(1);
    expect(during.batches.processing + during.batches.finished).to.equal(1);
    const deadline = Date.now() + 120_000;
    while ((await api.database.db('batches').where({ id: batchId }).first()).status === 'processing' && Date.now() < deadline) await new Promise((r) => setTimeout(r, 250));
    const after = await overview({ key: acct.key });
    expect(after.batches).to.deep.equal({ total: 1, processing: 0, finished: 1, error: 0 });
    expect(after.usage.total_screenshots).to.equal(4);
  });

  it("billing: the subscribed plan, and its period's grant against the screenshots of the period", async () => {
    const balance = (await overview({ key: acct.key })).account.balance;
    const sub = await call(api.url, '/billing/subscribe', { key: acct.key, method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ planId: 'free' }) });
    expect(sub.status, JSON.stringify(sub.body)).to.equal(200);
    const subscribed = await overview({ key: acct.key });
    expect(keys(subscribed.billing)).to.deep.equal(['plan', 'usage']);
    expect(subscribed.billing.plan).to.deep.equal(TEST_PLANS[0]);
    expect(keys(subscribed.billing.usage)).to.deep.equal(PLAN_USAGE_KEYS);
    // Screenshots from before the subscription belong to no period of it.
    expect(subscribed.billing.usage).to.deep.equal({ screenshots_this_month: 0, monthly_limit: 50, remaining: 50 });
    expect(subscribed.account.balance).to.equal(balance + 50);

    const shot = await create(acct.key, site.url('/echo?overview=plan'));
    const failed = await create(acct.key, BLOCKED_URL);
    await settled([shot.id, failed.id]);
    const used = await overview({ key: acct.key });
    // The failed capture cost nothing and uses nothing of the plan.
    expect(used.billing.usage).to.deep.equal({ screenshots_this_month: 1, monthly_limit: 50, remaining: 49 });
    expect(used.account.balance).to.equal(balance + 50 - shot.cost);
    expect(used.usage).to.deep.include({ total_screenshots: 6, finished: 4, error: 2, processing: 0 });
  });

  it("another account's overview shows none of these records", async () => {
    const other = await api.account(5);
    const data = await overview({ key: other.key });
    expect(data.account).to.include({ company_id: other.companyId, balance: 5 });
    expect(data.usage.total_screenshots).to.equal(0);
    expect(data.recent_screenshots).to.deep.equal([]);
    expect(data.billing).to.equal(null);
  });

  it('GET /admin/overview answers 403 to users, by key or session', async () => {
    for (const init of [{ key: acct.key }, { headers: { Authorization: `Bearer ${userToken}` } }] as Init[]) {
      const res = await call(api.url, '/admin/overview', init);
      expect(res.status, JSON.stringify(res.body)).to.equal(403);
      expect(res.body).to.include({ success: false, code: 'FORBIDDEN' });
      expect(res.body.details.request_id).to.be.a('string');
      expect(JSON.stringify(res.body)).to.not.include('totals');
    }
  });

  it("GET /admin/overview: the spec's shape, across every account, moving with real users and screenshots", async () => {
    const before = await admin();
    expect(keys(before)).to.deep.equal(ADMIN_KEYS);
    expect(keys(before.totals)).to.deep.equal(TOTALS_KEYS);
    expect(keys(before.screenshots)).to.deep.equal(['failed_24h', 'last_24h']);
    for (const u of before.top_users) expect(keys(u)).to.deep.equal(TOP_USER_KEYS);
    expect(before.totals.screenshots).to.equal(Number((await api.database.db('screenshots').count('* as n').first())?.n));
    expect(before.screenshots).to.deep.equal({ last_24h: before.totals.screenshots, failed_24h: 2 });
    // The first account's screenshots were made with a key of no user: they count for its first user.
    const owner = before.top_users.find((u: any) => u.user_id === userIdOf(userToken));
    expect(owner).to.include({ screenshots: 6 });

    // A new account with two users; the second user's own key makes one screenshot, the account's key two.
    const client = await api.account(50);
    const firstUser = userIdOf(await api.userToken(client.companyId));
    const [second] = await api.database
      .db('users')
      .insert({ company_id: client.companyId, email: `second-${Date.now()}@example.test`, name: 'Second' })
      .returning(['id', 'email']);
    const secondKey = generateApiKey();
    await insertApiKey(api.database.db, client.companyId, secondKey, 'second user', Number(second.id));
    const ids = [(await create(client.key, site.url('/echo?overview=client-1'))).id, (await create(client.key, BLOCKED_URL)).id, (await create(secondKey, site.url('/echo?overview=client-2'))).id];
    await settled(ids);

    const after = await admin();
    expect(after.totals).to.deep.equal({
      users: before.totals.users + 2,
      companies: before.totals.companies + 1,
      screenshots: before.totals.screenshots + 3,
      batches: before.totals.batches,
      active_clients: before.totals.active_clients + 1,
    });
    expect(after.screenshots).to.deep.equal({ last_24h: before.screenshots.last_24h + 3, failed_24h: before.screenshots.failed_24h + 1 });
    const companyName = (await api.database.db('companies').where({ id: client.companyId }).first()).name;
    expect(after.top_users).to.deep.include({ user_id: firstUser, email: (await api.database.db('users').where({ id: firstUser }).first()).email, company_name: companyName, screenshots: 2 });
    expect(after.top_users).to.deep.include({ user_id: Number(second.id), email: second.email, company_name: companyName, screenshots: 1 });
    // Ranked by screenshots, most first.
    const counts = after.top_users.map((u: any) => u.screenshots);
    expect(counts).to.deep.equal([...counts].sort((a: number, b: number) => b - a));
    expect(after.top_users[0]).to.include({ user_id: userIdOf(userToken), screenshots: 6 });
  });
});
