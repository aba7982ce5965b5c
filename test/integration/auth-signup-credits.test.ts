import { randomBytes } from 'node:crypto';
import { expect } from 'chai';
import { expectEnvelope, json, outboxToken, PASSWORD, uniqueEmail, type Answer } from '../support/auth-helpers.js';
import { backdateSubscription } from '../support/billing-fixtures.js';
import { postFrom } from '../support/call-from.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { call, startTestApi, type TestApi } from '../support/test-api.js';

const SIGNUP_CREDITS = 25;
/** The built-in free plan's monthly screenshots (core/billing/default-plans.ts). */
const FREE_PLAN_CREDITS = 100;
const SIGNUPS_PER_DAY = 3;
/** The one reverse proxy the API trusts. */
const PROXY = '127.0.0.9';

/**
 * Issue 25, "credits by the hundred from scripted sign-ups": 50 sign-ups from one address all succeeded,
 * unverified, and each account took the free plan's 100 credits. Each test signs up from a loopback address
 * of its own (postFrom), so the per-address signup limit of one test never meets another's.
 */
for (const kind of DATABASE_KINDS) {
  describe(`signup credits wait for a verified email, one free account per inbox, and a per-address signup limit on ${kind}`, function () {
    this.timeout(120_000);
    let api: TestApi;
    const db = () => api.database.db;

    before(async () => {
      api = await startTestApi(kind, {
        SHOTFARM_SIGNUP_CREDITS: String(SIGNUP_CREDITS),
        SHOTFARM_SIGNUPS_PER_ADDRESS_PER_DAY: String(SIGNUPS_PER_DAY),
        SHOTFARM_TRUSTED_PROXIES: PROXY,
      });
    });
    after(async () => api?.stop());

    async function signupFrom(address: string, email: string, headers: Record<string, string> = {}): Promise<{ key: string; companyId: number; email: string }> {
      const res = await postFrom(address, api.url, '/auth/signup', { email, password: PASSWORD }, headers);
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
      return { key: res.body.data.api_key.key, companyId: res.body.data.user.company.id, email: res.body.data.user.email };
    }
    const verify = async (email: string): Promise<void> => {
      const res = await call(api.url, '/auth/verify-email', json({ token: await outboxToken(db(), email, 'verify_email') }));
      expect(res.status, JSON.stringify(res.body)).to.equal(200);
    };
    const subscribe = (key: string, planId: string): Promise<Answer> => call(api.url, '/billing/subscribe', { ...json({ planId }), key });
    const balanceOf = async (key: string): Promise<number> => (await call(api.url, '/account/info', { key })).body.data.balance as number;
    const ledgerOf = async (companyId: number): Promise<{ delta: number; reason: string }[]> =>
      (await db()('credit_ledger').where({ company_id: companyId }).orderBy('id').select('delta', 'reason')).map((r) => ({ delta: Number(r.delta), reason: String(r.reason) }));
    const subscriptionsOf = async (companyId: number): Promise<number> => (await db()('subscriptions').where({ company_id: companyId })).length;

    it('an account opened by signup gets no credits until its email is verified: the free plan is a 403 EMAIL_NOT_VERIFIED that changes nothing, the link brings the signup credits, then the free plan its 100', async () => {
      const account = await signupFrom('127.0.1.1', uniqueEmail('unverified'));
      expect(await balanceOf(account.key)).to.equal(0);
      const refused = expectEnvelope(await subscribe(account.key, 'free'), 403, 'EMAIL_NOT_VERIFIED');
      expect(refused.error).to.include('Confirm your email address');
      expect(await subscriptionsOf(account.companyId)).to.equal(0);
      expect(await ledgerOf(account.companyId)).to.deep.equal([]);

      await verify(account.email);
      expect(await balanceOf(account.key)).to.equal(SIGNUP_CREDITS);
      expect((await subscribe(account.key, 'free')).status).to.equal(200);
      expect(await balanceOf(account.key)).to.equal(SIGNUP_CREDITS + FREE_PLAN_CREDITS);
      const ledger = await ledgerOf(account.companyId);
      expect(ledger.map((g) => g.delta)).to.deep.equal([SIGNUP_CREDITS, FREE_PLAN_CREDITS]);
      expect(ledger[0]?.reason).to.equal('signup credits');
      expect(ledger[1]?.reason).to.match(/^plan:/);
    });

    it("one inbox, one free account: other spellings of a verified inbox (a +tag, capitals, Gmail's dots and googlemail.com) get neither signup credits nor the free plan", async () => {
      const name = `ada${randomBytes(4).toString('hex')}`;
      const tagged = await signupFrom('127.0.1.2', `${name.slice(0, 2)}.${name.slice(2)}+one@gmail.com`);
      const first = await signupFrom('127.0.1.2', `${name}@googlemail.com`);
      const capitals = await signupFrom('127.0.1.2', `${name.toUpperCase()}+TWO@GMAIL.COM`);
      // The inbox's first account to verify takes its free grant, whichever signed up first.
      await verify(first.email);
      await verify(tagged.email);
      await verify(capitals.email);
      expect(await balanceOf(first.key)).to.equal(SIGNUP_CREDITS);
      expect((await subscribe(first.key, 'free')).status).to.equal(200);
      for (const other of [tagged, capitals]) {
        expect(await balanceOf(other.key), other.email).to.equal(0);
        const refused = expectEnvelope(await subscribe(other.key, 'free'), 403, 'FORBIDDEN');
        expect(refused.error).to.include(`${name}@gmail.com`);
        expect(await subscriptionsOf(other.companyId)).to.equal(0);
        expect(await ledgerOf(other.companyId)).to.deep.equal([]);
      }
      expect(
        (
          await db()('mailbox_free_grants')
            .where({ mailbox: `${name}@gmail.com` })
            .select('company_id')
        ).map((r) => Number(r.company_id)),
      ).to.deep.equal([first.companyId]);
    });

    it('the scripted sign-ups of issue 25: one address opens SHOTFARM_SIGNUPS_PER_ADDRESS_PER_DAY accounts, then 429 with retry_after whatever X-Forwarded-For it sends, and its accounts get no credits', async () => {
      const before = Number((await db()('companies').count('* as n'))[0]?.n);
      const answers: Answer[] = [];
      for (let i = 0; i < 10; i++)
        answers.push(await postFrom('127.0.1.4', api.url, '/auth/signup', { email: uniqueEmail('script'), password: PASSWORD }, { 'X-Forwarded-For': `198.51.100.${i + 1}` }));
      expect(answers.map((a) => a.status)).to.deep.equal([...Array<number>(SIGNUPS_PER_DAY).fill(200), ...Array<number>(10 - SIGNUPS_PER_DAY).fill(429)]);
      const limited = expectEnvelope(answers.at(-1) as Answer, 429, 'RATE_LIMIT_EXCEEDED');
      expect(limited.retry_after)
        .to.be.a('number')
        .within(1, 24 * 3600);
      expect(Number((await db()('companies').count('* as n'))[0]?.n)).to.equal(before + SIGNUPS_PER_DAY);
      for (const opened of answers.filter((a) => a.status === 200)) {
        const key = opened.body.data.api_key.key as string;
        expectEnvelope(await subscribe(key, 'free'), 403, 'EMAIL_NOT_VERIFIED');
        expect(await balanceOf(key)).to.equal(0);
      }
      // Another address is not affected.
      await signupFrom('127.0.1.5', uniqueEmail('neighbour'));
    });

    it('counts only accounts opened (a refused signup is free), and behind the trusted proxy each forwarded client has its own limit', async () => {
      for (const body of [
        { email: 'not an email', password: PASSWORD },
        { email: uniqueEmail('short'), password: 'short' },
      ])
        for (let i = 0; i < SIGNUPS_PER_DAY + 1; i++) expect((await postFrom('127.0.1.6', api.url, '/auth/signup', body)).status).to.equal(400);
      for (let i = 0; i < SIGNUPS_PER_DAY; i++) await signupFrom('127.0.1.6', uniqueEmail('after-refusals'));
      expectEnvelope(await postFrom('127.0.1.6', api.url, '/auth/signup', { email: uniqueEmail('one-more'), password: PASSWORD }), 429, 'RATE_LIMIT_EXCEEDED');

      const via = (client: string): Record<string, string> => ({ 'X-Forwarded-For': `192.0.2.1, ${client}` });
      for (let i = 0; i < SIGNUPS_PER_DAY; i++) await signupFrom(PROXY, uniqueEmail('proxied'), via('203.0.113.10'));
      expectEnvelope(await postFrom(PROXY, api.url, '/auth/signup', { email: uniqueEmail('proxied'), password: PASSWORD }, via('203.0.113.10')), 429, 'RATE_LIMIT_EXCEEDED');
      await signupFrom(PROXY, uniqueEmail('proxied'), via('203.0.113.11'));
    });

    it('a password reset link proves the inbox too: the reset brings the signup credits like the verification link', async () => {
      const account = await signupFrom('127.0.1.7', uniqueEmail('reset'));
      expect(await balanceOf(account.key)).to.equal(0);
      expect((await call(api.url, '/auth/forgot-password', json({ email: account.email }))).status).to.equal(200);
      const token = await outboxToken(db(), account.email, 'reset_password');
      expect((await call(api.url, '/auth/reset-password', json({ token, password: `${PASSWORD} 2` }))).status).to.equal(200);
      expect(await balanceOf(account.key)).to.equal(SIGNUP_CREDITS);
      // The verification link, used afterwards, grants nothing more.
      await verify(account.email);
      expect(await balanceOf(account.key)).to.equal(SIGNUP_CREDITS);
    });

    it("renewal: the inbox's free account renews its free plan; a free plan taken before this rule by another account of the inbox ends instead of granting again", async () => {
      const name = `grace${randomBytes(4).toString('hex')}`;
      const holder = await signupFrom('127.0.1.8', `${name}@example.test`);
      await verify(holder.email);
      expect((await subscribe(holder.key, 'free')).status).to.equal(200);
      // A second account of the inbox holding the free plan, as the old code let it subscribe (unverified).
      const earlier = await signupFrom('127.0.1.8', `${name}+old@example.test`);
      const now = new Date();
      const [row] = await db()('subscriptions')
        .insert({
          company_id: earlier.companyId,
          plan_id: 'free',
          status: 'active',
          provider: 'offline',
          anchor: now,
          period_number: 0,
          current_period_start: now,
          current_period_end: new Date(now.getTime() + 30 * 24 * 3600_000),
          created_at: now,
          updated_at: now,
        })
        .returning('id');
      const holderSub = await db()('subscriptions').where({ company_id: holder.companyId }).first('id');
      await backdateSubscription(db(), Number(row.id));
      await backdateSubscription(db(), Number(holderSub.id));
      expect(await api.plane.billing.renewal.renewDue()).to.equal(2);
      expect((await db()('subscriptions').where({ id: row.id }).first('status')).status).to.equal('ended');
      expect(await ledgerOf(earlier.companyId)).to.deep.equal([]);
      expect((await db()('subscriptions').where({ id: holderSub.id }).first('status')).status).to.equal('active');
      expect((await ledgerOf(holder.companyId)).filter((g) => g.reason.startsWith('plan:')).map((g) => g.delta)).to.deep.equal([FREE_PLAN_CREDITS, FREE_PLAN_CREDITS]);
    });
  });
}
