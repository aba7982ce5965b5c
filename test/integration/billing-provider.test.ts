import os from 'node:os';
import path from 'node:path';
import { expect } from 'chai';
import { configProblems } from '../support/config-problems.js';
import { createBilling, type Billing } from '../../api/billing/billing.js';
import type { Caller } from '../../api/http/state.js';
import { DEFAULT_PLANS } from '../../core/billing/default-plans.js';
import { plansSchema } from '../../core/billing/plan.js';
import { loadConfig } from '../../core/config/load-config.js';
import type { AttachedPaymentMethod, PaymentMethodInput, PaymentProvider, PeriodCharge, PeriodChargeInput } from '../../core/contracts/payment-provider.js';
import { ApiError } from '../../core/errors.js';
import { createLogger } from '../../core/logger.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';
import { TEST_PLANS, backdateSubscription, plansEnv, removePlansFiles, writePlansFile } from '../support/billing-fixtures.js';

/**
 * A card processor as an adapter would drive it, in memory: a nonce becomes a stored card, and each
 * period's outcome is scripted (`paid`, `failed`, or a thrown error for "processor unreachable").
 * Every charge attempt is recorded with its idempotency key.
 */
class ScriptedProcessor implements PaymentProvider {
  readonly name = 'scripted';
  readonly charges: PeriodChargeInput[] = [];
  readonly cancelled: number[] = [];
  constructor(public outcomes: ('paid' | 'failed' | 'unreachable')[]) {}

  async attachPaymentMethod(input: { companyId: number; details: PaymentMethodInput }): Promise<AttachedPaymentMethod> {
    return { providerRef: `card_${input.details.nonce}`, type: 'card', brand: 'mastercard', last4: '4444', expirationMonth: 12, expirationYear: 2099, email: null };
  }

  async chargePeriod(input: PeriodChargeInput): Promise<PeriodCharge> {
    this.charges.push(input);
    const outcome = this.outcomes.shift() ?? 'paid';
    if (outcome === 'unreachable') throw new Error('connect ECONNREFUSED processor');
    return outcome === 'paid' ? { status: 'paid', providerRef: `ch_${this.charges.length}` } : { status: 'failed', providerRef: `ch_${this.charges.length}`, message: 'Card declined' };
  }

  async cancelSubscription(input: { companyId: number; subscriptionId: number }): Promise<void> {
    this.cancelled.push(input.subscriptionId);
  }
}

describe('billing plans file (SHOTFARM_PLANS_FILE)', () => {
  after(removePlansFiles);
  it('ships valid built-in plans, used when no file is set, with a public free plan', () => {
    expect(plansSchema.safeParse(DEFAULT_PLANS).success).to.equal(true);
    const config = loadConfig({});
    expect(config.billing.plans).to.deep.equal(DEFAULT_PLANS);
    expect(config.billing.renewalSeconds).to.equal(300);
    expect(DEFAULT_PLANS.some((p) => p.public && p.price_usd === 0)).to.equal(true);
    expect(DEFAULT_PLANS.some((p) => !p.public)).to.equal(true);
  });

  it('reads the plans of the file given', () => {
    const config = loadConfig({ SHOTFARM_PLANS_FILE: writePlansFile(JSON.stringify(TEST_PLANS)), SHOTFARM_BILLING_RENEWAL_SECONDS: '60' });
    expect(config.billing.plans).to.deep.equal(TEST_PLANS);
    expect(config.billing.renewalSeconds).to.equal(60);
  });

  it('stops start-up naming SHOTFARM_PLANS_FILE and what is wrong in it', () => {
    const plan = TEST_PLANS[0] as Record<string, unknown>;
    const cases: [string, RegExp][] = [
      [path.join(os.tmpdir(), 'no-such-dir-shotfarm', 'plans.json'), /cannot read .*plans\.json \(ENOENT\)/],
      [writePlansFile('[{"id": "free",'), /not valid JSON/],
      [writePlansFile('[]'), /must list at least one plan/],
      [writePlansFile(JSON.stringify([{ ...plan, price_usd: -1 }])), /0\.price_usd: /],
      [writePlansFile(JSON.stringify([{ ...plan, price_usd: 9.999 }])), /0\.price_usd: must have at most two decimals/],
      [writePlansFile(JSON.stringify([{ ...plan, monthly_screenshots: 1.5 }])), /0\.monthly_screenshots: /],
      [writePlansFile(JSON.stringify([{ ...plan, id: 'Has Spaces' }])), /0\.id: must be 1 to 64 lowercase/],
      [writePlansFile(JSON.stringify([plan, { ...plan }])), /1\.id: "free" is listed twice/],
      // A misspelt field is an error, not a silently ignored plan setting.
      [writePlansFile(JSON.stringify([{ ...plan, monthly_screenshot: 5 }])), /monthly_screenshot/],
      [writePlansFile(JSON.stringify([{ ...plan, public: 'yes' }])), /0\.public: /],
    ];
    for (const [file, problem] of cases) {
      const problems = configProblems({ SHOTFARM_PLANS_FILE: file });
      expect(problems.filter((p) => p.startsWith('SHOTFARM_PLANS_FILE: ')).join(' | '), file).to.match(problem);
    }
    expect(configProblems({ SHOTFARM_BILLING_RENEWAL_SECONDS: '0' }).join()).to.match(/^SHOTFARM_BILLING_RENEWAL_SECONDS: /);
  });
});

describe('the renewal schedule of the control plane', function () {
  this.timeout(60_000);
  let api: TestApi;

  before(async () => {
    // Renewal every second: the schedule itself is under test.
    api = await startTestApi('pglite', { ...plansEnv(), SHOTFARM_BILLING_RENEWAL_SECONDS: '1' });
  });
  after(async () => {
    await api?.stop();
    removePlansFiles();
  });

  it('renews a subscription whose period ended by itself, once', async () => {
    const db = api.database.db;
    const acct = await api.account(0);
    const sub = await call(api.url, '/billing/subscribe', { key: acct.key, method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify({ planId: 'free' }) });
    expect(sub.status, JSON.stringify(sub.body)).to.equal(200);
    const grants = async () => db('credit_ledger').where({ company_id: acct.companyId }).where('reason', 'like', 'plan:%');
    await backdateSubscription(db, Number(sub.body.data.subscriptionId));
    const deadline = Date.now() + 15_000;
    while ((await grants()).length < 2 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 200));
    expect((await grants()).map((g) => Number(g.delta))).to.deep.equal([50, 50]);
    expect((await call(api.url, '/billing/receipts', { key: acct.key })).body.data).to.have.length(2);
    // Further ticks find nothing due.
    await new Promise((r) => setTimeout(r, 2500));
    expect((await grants()).length).to.equal(2);
  });
});

describe('billing through a card processor adapter (the PaymentProvider contract)', function () {
  this.timeout(60_000);
  let api: TestApi;
  const db = () => api.database.db;
  const caller = (companyId: number): Caller => ({ companyId, apiKeyId: null, userId: null, credential: `test:${companyId}`, roles: ['user'] });
  const grantsOf = async (companyId: number) => db()('credit_ledger').where({ company_id: companyId }).where('reason', 'like', 'plan:%').orderBy('id');

  /** Billing services over the test database with a scripted processor, as a composition root would build them. */
  function withProcessor(outcomes: ('paid' | 'failed' | 'unreachable')[]): { billing: Billing; processor: ScriptedProcessor } {
    const processor = new ScriptedProcessor(outcomes);
    return { billing: createBilling(db(), TEST_PLANS, createLogger('silent'), processor), processor };
  }

  before(async () => {
    // The control plane's own renewal runs at start and then hourly: it never races these tests.
    api = await startTestApi('pglite', { ...plansEnv(), SHOTFARM_BILLING_RENEWAL_SECONDS: '3600' });
  });
  after(async () => {
    await api?.stop();
    removePlansFiles();
  });

  it('stores what the adapter returns for a nonce, and charges that method', async () => {
    const acct = await api.account(0);
    const { billing, processor } = withProcessor(['paid']);
    const method = await billing.methods.add(acct.companyId, { type: 'card', nonce: 'tok_ok' }, false);
    expect(method).to.include({ provider: 'scripted', provider_ref: 'card_tok_ok', brand: 'mastercard', last4: '4444', is_default: true });
    const sub = await billing.subscriptions.subscribe(caller(acct.companyId), { planId: 'basic' });
    expect(processor.charges).to.have.length(1);
    expect(processor.charges[0]).to.include({ amountCents: 1250, currency: 'USD', subscriptionId: sub.id, companyId: acct.companyId });
    expect(processor.charges[0]?.paymentMethod?.providerRef, 'the default method is charged').to.equal('card_tok_ok');
    expect((await call(api.url, '/billing/receipts', { key: acct.key })).body.data.map((r: any) => [r.amount, r.status])).to.deep.equal([['12.50', 'paid']]);
    await billing.subscriptions.cancel(caller(acct.companyId), {});
    expect(processor.cancelled).to.deep.equal([sub.id]);
  });

  it('a declined first charge is a 402 PAYMENT_FAILED and leaves nothing behind', async () => {
    const acct = await api.account(3);
    const { billing, processor } = withProcessor(['failed']);
    const method = await billing.methods.add(acct.companyId, { type: 'card', nonce: 'tok_declines' }, false);
    let error: unknown;
    try {
      await billing.subscriptions.subscribe(caller(acct.companyId), { planId: 'basic', paymentMethodToken: method.token });
    } catch (err) {
      error = err;
    }
    expect(error).to.be.instanceOf(ApiError);
    expect(error).to.include({ status: 402, code: 'PAYMENT_FAILED', message: 'Card declined' });
    expect(processor.charges).to.have.length(1);
    expect(await db()('subscriptions').where({ company_id: acct.companyId })).to.deep.equal([]);
    expect(await db()('receipts').where({ company_id: acct.companyId })).to.deep.equal([]);
    expect(Number((await db()('companies').where({ id: acct.companyId }).first()).balance)).to.equal(3);
  });

  it('an unreachable processor leaves the period due; the retry charges it with the same idempotency key, once', async () => {
    const acct = await api.account(0);
    const { billing, processor } = withProcessor(['paid', 'unreachable', 'paid']);
    await billing.methods.add(acct.companyId, { type: 'card', nonce: 'tok_ok' }, true);
    const sub = await billing.subscriptions.subscribe(caller(acct.companyId), { planId: 'basic' });
    await backdateSubscription(db(), sub.id);
    expect(await billing.renewal.renewDue()).to.equal(0);
    const still = await db()('subscriptions').where({ id: sub.id }).first();
    expect([still.status, Number(still.period_number)]).to.deep.equal(['active', 0]);
    expect(await db()('receipts').where({ company_id: acct.companyId })).to.have.length(1);
    expect(await billing.renewal.renewDue()).to.equal(1);
    expect(processor.charges).to.have.length(3);
    expect(processor.charges[2]?.idempotencyKey).to.equal(processor.charges[1]?.idempotencyKey);
    expect(processor.charges[1]?.idempotencyKey).to.not.equal(processor.charges[0]?.idempotencyKey);
    expect((await grantsOf(acct.companyId)).map((g) => Number(g.delta))).to.deep.equal([200, 200]);
  });

  it('a declined renewal makes the subscription past due: a failed receipt, no credits, no plan on the dashboard, no further renewals', async () => {
    const acct = await api.account(0);
    const { billing, processor } = withProcessor(['paid', 'failed']);
    await billing.methods.add(acct.companyId, { type: 'card', nonce: 'tok_expires' }, true);
    const sub = await billing.subscriptions.subscribe(caller(acct.companyId), { planId: 'basic' });
    await backdateSubscription(db(), sub.id);
    expect(await billing.renewal.renewDue()).to.equal(1);
    expect((await db()('subscriptions').where({ id: sub.id }).first()).status).to.equal('past_due');
    expect((await grantsOf(acct.companyId)).map((g) => Number(g.delta))).to.deep.equal([200]);
    expect((await call(api.url, '/billing/receipts', { key: acct.key })).body.data.map((r: any) => r.status)).to.deep.equal(['failed', 'paid']);
    expect((await call(api.url, '/dashboard/overview', { key: acct.key })).body.data.billing).to.equal(null);
    expect((await call(api.url, '/account/info', { key: acct.key })).body.data.plan).to.equal(null);
    await backdateSubscription(db(), sub.id, 3);
    expect(await billing.renewal.renewDue()).to.equal(0);
    expect(processor.charges).to.have.length(2);
  });

  it('an upgrade within a period is one more charge, of the prorated difference, under its own idempotency key; declined, it is a 402 and nothing changes', async () => {
    const acct = await api.account(0);
    const { billing, processor } = withProcessor(['paid', 'failed', 'paid']);
    await billing.methods.add(acct.companyId, { type: 'card', nonce: 'tok_ok' }, true);
    const sub = await billing.subscriptions.subscribe(caller(acct.companyId), { planId: 'free' });
    const before = await db()('subscriptions').where({ id: sub.id }).first();
    let declined: unknown;
    await billing.subscriptions.subscribe(caller(acct.companyId), { planId: 'basic' }).catch((err: unknown) => {
      declined = err;
    });
    expect(declined).to.be.instanceOf(ApiError).and.include({ status: 402, code: 'PAYMENT_FAILED' });
    expect(await db()('subscriptions').where({ id: sub.id }).first()).to.deep.equal(before);
    expect((await grantsOf(acct.companyId)).map((g) => Number(g.delta))).to.deep.equal([50]);
    const upgraded = await billing.subscriptions.subscribe(caller(acct.companyId), { planId: 'basic' });
    expect([upgraded.id, upgraded.plan_id]).to.deep.equal([sub.id, 'basic']);
    expect(processor.charges.map((c) => c.amountCents)).to.deep.equal([0, 1250, 1250]);
    expect(processor.charges[2]?.idempotencyKey).to.equal(processor.charges[1]?.idempotencyKey);
    expect(processor.charges[2]?.idempotencyKey).to.match(/-upgrade-basic$/);
    expect((await grantsOf(acct.companyId)).map((g) => Number(g.delta))).to.deep.equal([50, 150]);
  });
});
