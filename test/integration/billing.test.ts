import { expect } from 'chai';
import { recordCredit } from '../../api/accounts/ledger.js';
import { openPeriod } from '../../api/billing/period-opener.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { ADMIN_KEY, TEST_PLANS, backdateSubscription, plansEnv, removePlansFiles } from '../support/billing-fixtures.js';
import { expectError, jsonPost } from '../support/error-envelope.js';

type Init = RequestInit & { key?: string };
const json = jsonPost;

const SUBSCRIPTION_KEYS = ['planId', 'status', 'subscriptionId'];
const RECEIPT_KEYS = ['amount', 'createdAt', 'currency', 'id', 'status'];

for (const kind of DATABASE_KINDS) {
  describe(`billing on ${kind}`, function () {
    this.timeout(120_000);
    let api: TestApi;
    const db = () => api.database.db;
    const post = (p: string, body: unknown, init: Init) =>
      call(api.url, p, { ...init, ...json(body), headers: { ...(init.headers as Record<string, string> | undefined), 'Content-Type': 'application/json' } });
    const balanceOf = async (companyId: number): Promise<number> => Number((await db()('companies').where({ id: companyId }).first('balance')).balance);
    const grantsOf = async (companyId: number) => db()('credit_ledger').where({ company_id: companyId }).where('reason', 'like', 'plan:%').orderBy('id');
    const receiptsOf = async (companyId: number) => db()('receipts').where({ company_id: companyId }).orderBy('id');
    const card = { type: 'card', brand: 'Visa', last4: '4242', expirationMonth: 4, expirationYear: new Date().getUTCFullYear() + 3 };

    /** Everything billing could change of an account, to show a refused request changed nothing. */
    async function billingState(companyId: number): Promise<unknown> {
      const by = { company_id: companyId };
      return {
        balance: await balanceOf(companyId),
        ledger: await db()('credit_ledger').where(by).orderBy('id'),
        subscriptions: await db()('subscriptions').where(by).orderBy('id'),
        receipts: await receiptsOf(companyId),
        methods: await db()('payment_methods').where(by).orderBy('id'),
      };
    }

    /**
     * A new account the operator approved as an invoiced customer: with SHOTFARM_OFFLINE_PAYMENTS at its
     * default (operator), only such accounts pay through the offline provider (billing-switching.test.ts).
     */
    async function customer(credits?: number): Promise<TestAccount> {
      const acct = await api.account(credits);
      const approved = await post('/billing/invoiced-accounts', { companyId: acct.companyId }, { key: ADMIN_KEY });
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
      return acct;
    }

    const backdate = (subscriptionId: number, periods = 1) => backdateSubscription(db(), subscriptionId, periods);

    before(async () => {
      api = await startTestApi(kind, plansEnv());
    });
    after(async () => {
      await api?.stop();
      removePlansFiles();
    });

    describe('GET /billing/plans', () => {
      it("lists the public plans of the plans file to users, in the spec's Plan shape", async () => {
        const acct = await customer(0);
        const res = await call(api.url, '/billing/plans', { key: acct.key });
        expect(res.status).to.equal(200);
        expect(res.body.success).to.equal(true);
        expect(res.body.data).to.deep.equal(TEST_PLANS.filter((p) => p.public));
        for (const plan of res.body.data) {
          expect(plan.id).to.be.a('string');
          expect(plan.name).to.be.a('string');
          expect(plan.price_usd).to.be.a('number');
          expect(Number.isInteger(plan.monthly_screenshots)).to.equal(true);
          expect(plan.features).to.be.an('array');
          expect(plan.public).to.equal(true);
        }
        const token = await api.userToken(acct.companyId);
        expect((await call(api.url, '/billing/plans', { headers: { Authorization: `Bearer ${token}` } })).body.data.map((p: any) => p.id)).to.deep.equal(['free', 'basic']);
      });

      it('openapi.json documents every billing and overview operation with its fields', async () => {
        const doc = (await call(api.url, '/openapi.json')).body;
        for (const [path, method] of [
          ['/billing/plans', 'get'],
          ['/billing/subscribe', 'post'],
          ['/billing/cancel', 'post'],
          ['/billing/payment-methods', 'get'],
          ['/billing/payment-methods', 'post'],
          ['/billing/receipts', 'get'],
          ['/dashboard/overview', 'get'],
          ['/admin/overview', 'get'],
        ] as const) {
          expect(doc.paths[path]?.[method], `${method} ${path}`).to.be.an('object');
        }
        // POST fields are the JSON request body's (issue 15: they were documented as query parameters).
        const subscribe = doc.paths['/billing/subscribe'].post.requestBody.content['application/json'].schema;
        expect(subscribe.required).to.deep.equal(['planId']);
        expect(Object.keys(subscribe.properties)).to.include('paymentMethodToken');
        const method = doc.paths['/billing/payment-methods'].post.requestBody.content['application/json'].schema;
        expect(method.properties.type.enum).to.deep.equal(['card', 'paypal']);
        expect(method.properties.expirationMonth).to.include({ minimum: 1, maximum: 12 });
      });

      it('shows admins the plans that are not public too', async () => {
        const res = await call(api.url, '/billing/plans', { key: ADMIN_KEY });
        expect(res.status).to.equal(200);
        expect(res.body.data).to.deep.equal(TEST_PLANS);
      });
    });

    describe('payment methods', () => {
      it("adds a card and a PayPal account in the spec's Payment method shape; the first is the default", async () => {
        const acct = await customer(0);
        const added = await post('/billing/payment-methods', card, { key: acct.key });
        expect(added.status, JSON.stringify(added.body)).to.equal(200);
        expect(added.body.data).to.deep.equal({
          token: added.body.data.token,
          type: 'card',
          brand: 'visa',
          last4: '4242',
          expirationMonth: '04',
          expirationYear: String(card.expirationYear),
          default: true,
        });
        expect(added.body.data.token).to.match(/^pm_[A-Za-z0-9_-]{24}$/);
        const paypal = await post('/billing/payment-methods', { type: 'paypal', email: 'payer@example.test' }, { key: acct.key });
        expect(paypal.body.data).to.deep.equal({ token: paypal.body.data.token, type: 'paypal', email: 'payer@example.test', default: false });
        const list = await call(api.url, '/billing/payment-methods', { key: acct.key });
        expect(list.status).to.equal(200);
        expect(list.body.data).to.deep.equal([added.body.data, paypal.body.data]);
      });

      it('moves the default to a method added with default=true', async () => {
        const acct = await customer(0);
        const first = await post('/billing/payment-methods', card, { key: acct.key });
        const second = await post('/billing/payment-methods', { ...card, last4: '1111', default: true }, { key: acct.key });
        expect(second.body.data.default).to.equal(true);
        const list = (await call(api.url, '/billing/payment-methods', { key: acct.key })).body.data;
        expect(list.map((m: any) => [m.token, m.default])).to.deep.equal([
          [first.body.data.token, false],
          [second.body.data.token, true],
        ]);
      });

      it('refuses incomplete, expired or unknown-type methods and card numbers with 400 naming the field, storing nothing', async () => {
        const acct = await customer(0);
        const before = await billingState(acct.companyId);
        const cases: [unknown, string][] = [
          [{}, 'type'],
          [{ type: 'bitcoin' }, 'type'],
          [{ type: 'card', brand: 'visa', expirationMonth: 1, expirationYear: 2099 }, 'last4'],
          [{ ...card, last4: '42x2' }, 'last4'],
          [{ ...card, expirationMonth: 13 }, 'expirationMonth'],
          [{ ...card, expirationYear: 2001 }, 'expirationYear'],
          [{ type: 'paypal' }, 'email'],
          [{ type: 'paypal', email: 'not an email' }, 'email'],
          [{ ...card, number: '4242424242424242' }, 'number'],
          [{ ...card, cvv: '123' }, 'cvv'],
          // The offline provider has no processor to exchange a nonce with.
          [{ type: 'card', nonce: 'tok_visa' }, 'nonce'],
        ];
        for (const [body, field] of cases) {
          const res = await post('/billing/payment-methods', body, { key: acct.key });
          const err = expectError(res, 400, 'VALIDATION_ERROR');
          expect(err.fields, `${JSON.stringify(body)} → ${JSON.stringify(err.fields)}`).to.have.property(field);
          expect(JSON.stringify(err), 'a card number is never echoed').to.not.include('4242424242424242');
        }
        expect(await billingState(acct.companyId)).to.deep.equal(before);
      });
    });

    describe('subscribing', () => {
      it("subscribes to a paid plan: Subscription shape, one receipt for the period, the plan's screenshots granted once", async () => {
        const acct = await customer(7);
        const method = (await post('/billing/payment-methods', card, { key: acct.key })).body.data;
        const res = await post('/billing/subscribe', { planId: 'basic', paymentMethodToken: method.token }, { key: acct.key });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(Object.keys(res.body.data).sort()).to.deep.equal(SUBSCRIPTION_KEYS);
        expect(res.body.data).to.include({ status: 'active', planId: 'basic' });
        expect(res.body.data.subscriptionId).to.be.a('string').and.match(/^\d+$/);
        expect(await balanceOf(acct.companyId)).to.equal(7 + 200);
        const grants = await grantsOf(acct.companyId);
        expect(grants.map((g) => Number(g.delta))).to.deep.equal([200]);
        expect(grants[0].reason).to.match(new RegExp(`^plan:${res.body.data.subscriptionId}:\\d{4}-`));

        const receipts = await call(api.url, '/billing/receipts', { key: acct.key });
        expect(receipts.status).to.equal(200);
        expect(receipts.body.data).to.have.length(1);
        const receipt = receipts.body.data[0];
        expect(Object.keys(receipt).sort()).to.deep.equal(RECEIPT_KEYS);
        expect(receipt).to.include({ amount: '12.50', currency: 'USD', status: 'invoiced' });
        expect(receipt.id).to.be.a('string');
        expect(new Date(receipt.createdAt).getTime()).to.be.closeTo(Date.now(), 60_000);

        // Subscribing again to the same plan keeps the subscription and its period: nothing more is granted.
        const again = await post('/billing/subscribe', { planId: 'basic' }, { key: acct.key });
        expect(again.body.data).to.deep.equal(res.body.data);
        expect((await grantsOf(acct.companyId)).length).to.equal(1);
        expect((await receiptsOf(acct.companyId)).length).to.equal(1);
      });

      it('subscribes to a free plan without a payment method (receipt 0.00, paid)', async () => {
        const acct = await customer(0);
        const token = await api.userToken(acct.companyId);
        const res = await post('/billing/subscribe', { planId: 'free' }, { headers: { Authorization: `Bearer ${token}` } });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.data).to.include({ status: 'active', planId: 'free' });
        expect(await balanceOf(acct.companyId)).to.equal(50);
        expect((await call(api.url, '/billing/receipts', { key: acct.key })).body.data.map((r: any) => [r.amount, r.status])).to.deep.equal([['0.00', 'paid']]);
        const info = await call(api.url, '/account/info', { key: acct.key });
        expect(info.body.data.plan).to.equal(TEST_PLANS[0]?.id);
        expect(info.body.data.plan_details).to.deep.equal(TEST_PLANS[0]);
        expect(info.body.data.balance).to.equal(50);
      });

      it('400 for a paid plan without a payment method, and for unknown or non-public plans; nothing changes', async () => {
        const acct = await customer(10);
        const before = await billingState(acct.companyId);
        const noMethod = expectError(await post('/billing/subscribe', { planId: 'basic' }, { key: acct.key }), 400, 'VALIDATION_ERROR');
        expect(noMethod.fields).to.have.property('paymentMethodToken');
        expect(expectError(await post('/billing/subscribe', {}, { key: acct.key }), 400, 'VALIDATION_ERROR').fields.planId).to.deep.equal(['is required']);
        expect(expectError(await post('/billing/subscribe', { planId: 'gold' }, { key: acct.key }), 400, 'VALIDATION_ERROR').fields).to.have.property('planId');
        // A plan that is not public is refused to users exactly like an unknown one.
        const hidden = expectError(await post('/billing/subscribe', { planId: 'hidden' }, { key: acct.key }), 400, 'VALIDATION_ERROR');
        const unknown = expectError(await post('/billing/subscribe', { planId: 'gold' }, { key: acct.key }), 400, 'VALIDATION_ERROR');
        expect(hidden.fields).to.deep.equal(unknown.fields);
        expect(await billingState(acct.companyId)).to.deep.equal(before);
      });

      it('lets an admin subscribe to a plan that is not public', async () => {
        const admin = await db()('api_keys').where({ name: 'bootstrap' }).first('company_id');
        const res = await post('/billing/subscribe', { planId: 'hidden' }, { key: ADMIN_KEY });
        // A paid plan still needs a payment method: add one, then subscribe.
        expect(res.status).to.equal(400);
        await post('/billing/payment-methods', card, { key: ADMIN_KEY });
        const ok = await post('/billing/subscribe', { planId: 'hidden' }, { key: ADMIN_KEY });
        expect(ok.status, JSON.stringify(ok.body)).to.equal(200);
        expect(ok.body.data).to.include({ planId: 'hidden', status: 'active' });
        expect((await grantsOf(Number(admin.company_id))).map((g) => Number(g.delta))).to.deep.equal([1000]);
      });

      it('switching to a plan granting more keeps the subscription and its period, and charges and grants only the difference for the rest of it', async () => {
        const acct = await customer(0);
        const free = (await post('/billing/subscribe', { planId: 'free' }, { key: acct.key })).body.data;
        await post('/billing/payment-methods', card, { key: acct.key });
        const basic = (await post('/billing/subscribe', { planId: 'basic' }, { key: acct.key })).body.data;
        expect(basic).to.deep.equal({ ...free, planId: 'basic' });
        const subs = await db()('subscriptions').where({ company_id: acct.companyId }).orderBy('id');
        expect(subs.map((s) => [String(s.id), s.status, s.plan_id])).to.deep.equal([[free.subscriptionId, 'active', 'basic']]);
        // Switched at once, so all of the period is left: the whole difference (billing-switching.test.ts prorates).
        expect(await balanceOf(acct.companyId)).to.equal(50 + 150);
        expect((await call(api.url, '/billing/receipts', { key: acct.key })).body.data.map((r: any) => r.amount)).to.deep.equal(['12.50', '0.00']);
      });
    });

    describe('renewal', () => {
      let acct: TestAccount;
      let subscriptionId: number;

      before(async () => {
        acct = await customer(0);
        await post('/billing/payment-methods', card, { key: acct.key });
        subscriptionId = Number((await post('/billing/subscribe', { planId: 'basic' }, { key: acct.key })).body.data.subscriptionId);
      });

      it('renews nothing before the period ends, however often it runs', async () => {
        await api.plane.billing.renewal.renewDue();
        await api.plane.billing.renewal.renewDue();
        expect((await grantsOf(acct.companyId)).length).to.equal(1);
        expect((await receiptsOf(acct.companyId)).length).to.equal(1);
      });

      it('after the period ends: a new period, a new receipt and a new grant, once even when renewal runs twice at the same time', async () => {
        await backdate(subscriptionId);
        const ended = await db()('subscriptions').where({ id: subscriptionId }).first();
        const renewals = await Promise.all([api.plane.billing.renewal.renewDue(), api.plane.billing.renewal.renewDue()]);
        expect(renewals[0] + renewals[1], 'periods opened by the two runs together').to.equal(1);
        expect(await api.plane.billing.renewal.renewDue()).to.equal(0);

        const grants = await grantsOf(acct.companyId);
        expect(grants.map((g) => Number(g.delta))).to.deep.equal([200, 200]);
        expect(grants[1].reason).to.equal(`plan:${subscriptionId}:${new Date(ended.current_period_end).toISOString()}`);
        expect(await balanceOf(acct.companyId)).to.equal(400);
        const receipts = (await call(api.url, '/billing/receipts', { key: acct.key })).body.data;
        expect(receipts.map((r: any) => [r.amount, r.status])).to.deep.equal([
          ['12.50', 'invoiced'],
          ['12.50', 'invoiced'],
        ]);
        expect(Number(receipts[0].id)).to.be.greaterThan(Number(receipts[1].id));
        const renewed = await db()('subscriptions').where({ id: subscriptionId }).first();
        expect(Number(renewed.period_number)).to.equal(1);
        expect(new Date(renewed.current_period_start).getTime()).to.equal(new Date(ended.current_period_end).getTime());
        expect(new Date(renewed.current_period_end).getTime()).to.be.greaterThan(Date.now());
      });

      it('the database refuses a second opening, or a second grant, of a period that was already granted', async () => {
        const sub = await db()('subscriptions').where({ id: subscriptionId }).first();
        const before = await billingState(acct.companyId);
        let refused = false;
        try {
          await db().transaction((trx) =>
            openPeriod(trx, api.plane.billing.provider, {
              companyId: acct.companyId,
              subscriptionId,
              plan: TEST_PLANS[1] as any,
              start: new Date(sub.current_period_start),
              end: new Date(sub.current_period_end),
              paymentMethod: null,
            }),
          );
        } catch {
          refused = true;
        }
        expect(refused).to.equal(true);
        // The ledger itself refuses a second grant of a period, whatever code would attempt it.
        const granted = (await grantsOf(acct.companyId)).at(-1);
        let ledgerRefused = false;
        try {
          await db().transaction((trx) => recordCredit(trx, { companyId: acct.companyId, delta: 200, reason: String(granted.reason) }));
        } catch {
          ledgerRefused = true;
        }
        expect(ledgerRefused).to.equal(true);
        expect(await billingState(acct.companyId)).to.deep.equal(before);
      });

      it('renews every period missed while no control plane ran, each with its receipt and grant', async () => {
        await backdate(subscriptionId, 2);
        expect(await api.plane.billing.renewal.renewDue()).to.equal(2);
        expect((await grantsOf(acct.companyId)).length).to.equal(4);
        expect((await receiptsOf(acct.companyId)).length).to.equal(4);
        const sub = await db()('subscriptions').where({ id: subscriptionId }).first();
        expect(Number(sub.period_number)).to.equal(3);
        expect(new Date(sub.current_period_end).getTime()).to.be.greaterThan(Date.now());
      });

      it('cancel: the period runs to its end, then the subscription ends without a receipt or credits', async () => {
        const res = await post('/billing/cancel', {}, { key: acct.key });
        expect(res.status, JSON.stringify(res.body)).to.equal(200);
        expect(res.body.data).to.deep.equal({ subscriptionId: String(subscriptionId), status: 'cancelled', planId: 'basic' });
        // Cancelling twice is harmless.
        expect((await post('/billing/cancel', { subscriptionId: String(subscriptionId) }, { key: acct.key })).body.data.status).to.equal('cancelled');
        // Still the account's plan until the period ends.
        expect((await call(api.url, '/account/info', { key: acct.key })).body.data.plan).to.equal('basic');
        const balance = await balanceOf(acct.companyId);

        await backdate(subscriptionId);
        await api.plane.billing.renewal.renewDue();
        await api.plane.billing.renewal.renewDue();
        expect((await grantsOf(acct.companyId)).length).to.equal(4);
        expect((await receiptsOf(acct.companyId)).length).to.equal(4);
        expect(await balanceOf(acct.companyId)).to.equal(balance);
        const sub = await db()('subscriptions').where({ id: subscriptionId }).first();
        expect(sub.status).to.equal('ended');
        expect(new Date(sub.ended_at).getTime()).to.equal(new Date(sub.current_period_end).getTime());
        expect((await call(api.url, '/account/info', { key: acct.key })).body.data.plan).to.equal(null);
        // Nothing left to cancel.
        expectError(await post('/billing/cancel', {}, { key: acct.key }), 404, 'NOT_FOUND');
      });

      it('subscribing again to a cancelled plan within its period takes the cancellation back', async () => {
        const other = await customer(0);
        const sub = (await post('/billing/subscribe', { planId: 'free' }, { key: other.key })).body.data;
        await post('/billing/cancel', {}, { key: other.key });
        const back = await post('/billing/subscribe', { planId: 'free' }, { key: other.key });
        expect(back.body.data).to.deep.equal({ ...sub, status: 'active' });
        expect((await grantsOf(other.companyId)).length).to.equal(1);
      });
    });

    describe('tenant isolation', () => {
      let owner: TestAccount;
      let intruder: TestAccount;
      let ownerMethod: string;
      let ownerSubscription: string;

      before(async () => {
        owner = await customer(0);
        intruder = await customer(0);
        ownerMethod = (await post('/billing/payment-methods', card, { key: owner.key })).body.data.token;
        ownerSubscription = (await post('/billing/subscribe', { planId: 'basic', paymentMethodToken: ownerMethod }, { key: owner.key })).body.data.subscriptionId;
        // The intruder has billing records of its own, so empty lists are not what makes the checks pass.
        await post('/billing/payment-methods', { type: 'paypal', email: 'intruder@example.test' }, { key: intruder.key });
      });

      it("another account's payment method token is a 404 to subscribe, with a key or a session; nothing changes", async () => {
        const token = await api.userToken(intruder.companyId);
        const before = [await billingState(owner.companyId), await billingState(intruder.companyId)];
        for (const init of [{ key: intruder.key }, { headers: { Authorization: `Bearer ${token}` } }] as Init[]) {
          const res = await post('/billing/subscribe', { planId: 'basic', paymentMethodToken: ownerMethod }, init);
          expectError(res, 404, 'NOT_FOUND');
          expect(JSON.stringify(res.body)).to.not.include('4242');
          // Also for a free plan, where a method is optional: a token given must be the caller's.
          expectError(await post('/billing/subscribe', { planId: 'free', paymentMethodToken: ownerMethod }, init), 404, 'NOT_FOUND');
        }
        expect([await billingState(owner.companyId), await billingState(intruder.companyId)]).to.deep.equal(before);
      });

      it("another account's subscription id is a 404 to cancel; the owner's subscription stays active", async () => {
        await post('/billing/subscribe', { planId: 'free' }, { key: intruder.key });
        const before = await billingState(owner.companyId);
        expectError(await post('/billing/cancel', { subscriptionId: ownerSubscription }, { key: intruder.key }), 404, 'NOT_FOUND');
        expectError(await call(api.url, `/billing/cancel?subscriptionId=${ownerSubscription}`, { key: intruder.key, method: 'POST' }), 404, 'NOT_FOUND');
        expect(await billingState(owner.companyId)).to.deep.equal(before);
        expect(
          (
            await db()('subscriptions')
              .where({ id: Number(ownerSubscription) })
              .first()
          ).status,
        ).to.equal('active');
      });

      it("lists of payment methods and receipts show only the caller's own", async () => {
        const methods = (await call(api.url, '/billing/payment-methods', { key: intruder.key })).body.data;
        expect(methods.map((m: any) => m.type)).to.deep.equal(['paypal']);
        expect(JSON.stringify(methods)).to.not.include(ownerMethod);
        const receipts = (await call(api.url, '/billing/receipts', { key: intruder.key })).body.data;
        const own = await receiptsOf(intruder.companyId);
        expect(receipts.map((r: any) => r.id)).to.deep.equal(own.map((r) => String(r.id)).reverse());
        expect(receipts.map((r: any) => r.amount)).to.deep.equal(['0.00']);
      });
    });
  });
}
