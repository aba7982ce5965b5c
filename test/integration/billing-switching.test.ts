import { expect } from 'chai';
import { createBilling } from '../../api/billing/billing.js';
import { OfflinePaymentProvider } from '../../api/billing/offline-provider.js';
import type { Caller } from '../../api/http/state.js';
import { ApiError } from '../../core/errors.js';
import { createLogger } from '../../core/logger.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { call, startTestApi, type TestAccount, type TestApi } from '../support/test-api.js';
import { ADMIN_KEY, TEST_PLANS, backdateSubscription, plansEnv, removePlansFiles } from '../support/billing-fixtures.js';
import { expectError, jsonPost } from '../support/error-envelope.js';

const json = jsonPost;

for (const kind of DATABASE_KINDS) {
  describe(`plan switching grants a period's credits once on ${kind}`, function () {
    this.timeout(120_000);
    let api: TestApi;
    const db = () => api.database.db;
    const post = (p: string, body: unknown, key: string) => call(api.url, p, { ...json(body), key });
    const grantsOf = async (companyId: number) => (await db()('credit_ledger').where({ company_id: companyId }).where('reason', 'like', 'plan:%').orderBy('id')).map((g) => Number(g.delta));
    const receiptsOf = async (key: string) => (await call(api.url, '/billing/receipts', { key })).body.data.map((r: any) => r.amount);
    const balanceOf = async (companyId: number): Promise<number> => Number((await db()('companies').where({ id: companyId }).first('balance')).balance);
    const card = { type: 'card', brand: 'Visa', last4: '4242', expirationMonth: 4, expirationYear: new Date().getUTCFullYear() + 3 };

    /** An invoiced customer: an account the operator (admin) approved for the offline provider. */
    async function invoicedCustomer(): Promise<TestAccount> {
      const acct = await api.account(0);
      const approved = await post('/billing/invoiced-accounts', { companyId: acct.companyId, invoiced: true }, ADMIN_KEY);
      expect(approved.status, JSON.stringify(approved.body)).to.equal(200);
      expect((await post('/billing/payment-methods', card, acct.key)).status).to.equal(200);
      return acct;
    }

    before(async () => {
      api = await startTestApi(kind, plansEnv());
    });
    after(async () => {
      await api?.stop();
      removePlansFiles();
    });

    it("switching up and down many times, cancelling and subscribing again grows the balance by at most one period's grant of the highest plan", async () => {
      const acct = await invoicedCustomer();
      const plan = async (planId: string) => {
        const res = await post('/billing/subscribe', { planId }, acct.key);
        expect(res.status, `${planId}: ${JSON.stringify(res.body)}`).to.equal(200);
      };
      await plan('free');
      for (let i = 0; i < 10; i++) {
        await plan('basic');
        await plan('free');
      }
      for (let i = 0; i < 5; i++) {
        expect((await post('/billing/cancel', {}, acct.key)).status).to.equal(200);
        await plan(i % 2 === 0 ? 'basic' : 'free');
      }
      const grants = await db()('credit_ledger').where({ company_id: acct.companyId }).sum('delta as total').first();
      expect(await balanceOf(acct.companyId), `ledger total ${grants?.total}`).to.be.at.most(200);
      // One subscription throughout: no switch opened a period of its own.
      expect(await db()('subscriptions').where({ company_id: acct.companyId })).to.have.length(1);
    });

    it('an upgrade within a period charges and grants the prorated difference, once; a downgrade grants nothing and starts with the next period', async () => {
      const acct = await invoicedCustomer();
      const free = (await post('/billing/subscribe', { planId: 'free' }, acct.key)).body.data;
      // Half of the period has run: move it so that it started 15 days ago and ends in 15 days.
      const day = 24 * 3600_000;
      await db()('subscriptions')
        .where({ id: Number(free.subscriptionId) })
        .update({ anchor: new Date(Date.now() - 15 * day), current_period_start: new Date(Date.now() - 15 * day), current_period_end: new Date(Date.now() + 15 * day) });
      const up = await post('/billing/subscribe', { planId: 'basic' }, acct.key);
      expect(up.status, JSON.stringify(up.body)).to.equal(200);
      expect(up.body.data, 'the same subscription, now on the new plan').to.deep.equal({ ...free, planId: 'basic' });
      // Half of (200 - 50) credits and half of 12.50 USD.
      expect(await grantsOf(acct.companyId)).to.deep.equal([50, 75]);
      expect(await receiptsOf(acct.key)).to.deep.equal(['6.25', '0.00']);

      const down = await post('/billing/subscribe', { planId: 'free' }, acct.key);
      expect(down.body.data, 'still on basic until the period ends').to.deep.equal({ ...free, planId: 'basic' });
      const again = await post('/billing/subscribe', { planId: 'basic' }, acct.key);
      expect(again.body.data).to.deep.equal({ ...free, planId: 'basic' });
      await post('/billing/subscribe', { planId: 'free' }, acct.key);
      expect(await grantsOf(acct.companyId)).to.deep.equal([50, 75]);
      expect(await receiptsOf(acct.key)).to.have.length(2);

      // The next period opens on the plan chosen last: free.
      await backdateSubscription(db(), Number(free.subscriptionId));
      expect(await api.plane.billing.renewal.renewDue()).to.equal(1);
      expect(await grantsOf(acct.companyId)).to.deep.equal([50, 75, 50]);
      expect(await receiptsOf(acct.key)).to.deep.equal(['0.00', '6.25', '0.00']);
      expect((await call(api.url, '/account/info', { key: acct.key })).body.data.plan, 'the plan id, as account info answers it').to.equal('free');
    });

    describe('the offline provider is for invoiced customers the operator approved', () => {
      it('a self-service account gets 403 adding a payment method; a paid plan needs one, the free plan still works', async () => {
        const acct = await api.account(0);
        const before = await db()('payment_methods').where({ company_id: acct.companyId });
        const refused = expectError(await post('/billing/payment-methods', card, acct.key), 403, 'FORBIDDEN');
        expect(refused.error).to.match(/invoice/i);
        expect(await db()('payment_methods').where({ company_id: acct.companyId })).to.deep.equal(before);
        expectError(await post('/billing/subscribe', { planId: 'basic' }, acct.key), 400, 'VALIDATION_ERROR');
        expect((await post('/billing/subscribe', { planId: 'free' }, acct.key)).status).to.equal(200);
        expect(await grantsOf(acct.companyId)).to.deep.equal([50]);
      });

      it('an account whose approval was withdrawn cannot take a paid plan with the method it kept (403, nothing changes)', async () => {
        const acct = await invoicedCustomer();
        expect((await post('/billing/invoiced-accounts', { companyId: acct.companyId, invoiced: false }, ADMIN_KEY)).body.data).to.deep.equal({ companyId: acct.companyId, invoiced: false });
        expectError(await post('/billing/subscribe', { planId: 'basic' }, acct.key), 403, 'FORBIDDEN');
        // Nor upgrade to one from the free plan.
        await post('/billing/subscribe', { planId: 'free' }, acct.key);
        expectError(await post('/billing/subscribe', { planId: 'basic' }, acct.key), 403, 'FORBIDDEN');
        expect(await grantsOf(acct.companyId)).to.deep.equal([50]);
        expect((await db()('subscriptions').where({ company_id: acct.companyId })).map((s) => s.plan_id)).to.deep.equal(['free']);
      });

      it('only an admin approves an account: 403 to users, 404 for an unknown account, 400 naming the field', async () => {
        const acct = await api.account(0);
        expectError(await post('/billing/invoiced-accounts', { companyId: acct.companyId }, acct.key), 403, 'FORBIDDEN');
        expect((await db()('companies').where({ id: acct.companyId }).first('invoiced')).invoiced).to.equal(false);
        expectError(await post('/billing/invoiced-accounts', { companyId: 999_999_999 }, ADMIN_KEY), 404, 'NOT_FOUND');
        expect(expectError(await post('/billing/invoiced-accounts', { companyId: 'abc' }, ADMIN_KEY), 400, 'VALIDATION_ERROR').fields).to.have.property('companyId');
        expect(expectError(await post('/billing/invoiced-accounts', {}, ADMIN_KEY), 400, 'VALIDATION_ERROR').fields).to.have.property('companyId');
        // Approved (invoiced defaults to true), it pays by invoice.
        expect((await post('/billing/invoiced-accounts', { companyId: acct.companyId }, ADMIN_KEY)).body.data).to.deep.equal({ companyId: acct.companyId, invoiced: true });
        expect((await post('/billing/payment-methods', card, acct.key)).status).to.equal(200);
        expect((await post('/billing/subscribe', { planId: 'basic' }, acct.key)).status).to.equal(200);
        expect(await receiptsOf(acct.key)).to.deep.equal(['12.50']);
      });

      it('SHOTFARM_OFFLINE_PAYMENTS=self-service lets any account pay with it', async () => {
        const acct = await api.account(0);
        const caller: Caller = { companyId: acct.companyId, apiKeyId: null, userId: null, credential: `test:${acct.companyId}`, roles: ['user'] };
        const operator = createBilling(db(), TEST_PLANS, createLogger('silent'), new OfflinePaymentProvider());
        const selfService = createBilling(db(), TEST_PLANS, createLogger('silent'), new OfflinePaymentProvider(), 'self-service');
        await selfService.methods.add(acct.companyId, { type: 'card', brand: 'visa', last4: '4242', expirationMonth: 4, expirationYear: card.expirationYear }, true);
        let refused: unknown;
        await operator.subscriptions.subscribe(caller, { planId: 'basic' }).catch((err: unknown) => {
          refused = err;
        });
        expect(refused).to.be.instanceOf(ApiError).and.include({ status: 403, code: 'FORBIDDEN' });
        await selfService.subscriptions.subscribe(caller, { planId: 'basic' });
        expect(await grantsOf(acct.companyId)).to.deep.equal([200]);
      });
    });
  });
}
