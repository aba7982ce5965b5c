import { expect } from 'chai';
import { expectEnvelope, outboxToken, PASSWORD, signup, uniqueEmail } from '../support/auth-helpers.js';
import { postFrom } from '../support/call-from.js';
import { DATABASE_KINDS } from '../support/databases.js';
import { startTestApi, type TestApi } from '../support/test-api.js';

const MAX_FAILURES = 5;
/** Per client address and minute, for every route that takes no credential (signup, login, password flows). */
const PER_MINUTE = 30;
/** The one reverse proxy the API trusts; every other loopback address is a client talking to it directly. */
const PROXY = '127.0.0.9';

/**
 * Each test is a client (or a proxy) with a loopback address of its own (postFrom binds 127.0.0.x), so the
 * API sees a real peer address, and the tests' limits do not mix.
 */
for (const kind of DATABASE_KINDS) {
  describe(`client addresses and the limits keyed on them on ${kind}`, function () {
    this.timeout(120_000);
    let api: TestApi;
    /** A fresh X-Forwarded-For value per try, as an attacker would send. */
    const spoofed = (i: number): Record<string, string> => ({ 'X-Forwarded-For': `198.51.100.${i + 1}` });

    before(async () => {
      api = await startTestApi(kind, { SHOTFARM_LOGIN_MAX_FAILURES: String(MAX_FAILURES), SHOTFARM_RATE_LIMIT_PER_MINUTE: String(PER_MINUTE), SHOTFARM_TRUSTED_PROXIES: PROXY });
    });
    after(async () => api?.stop());

    it('25 failed logins with 25 different X-Forwarded-For values: 429 after the limit, and the account stays locked from any other address', async () => {
      const email = uniqueEmail('spoof');
      await signup(api, { email });
      const statuses: number[] = [];
      for (let i = 0; i < 25; i++) statuses.push((await postFrom('127.0.0.11', api.url, '/auth/login', { email, password: `guess ${i}` }, spoofed(i))).status);
      expect(statuses).to.deep.equal([...Array<number>(MAX_FAILURES).fill(401), ...Array<number>(25 - MAX_FAILURES).fill(429)]);
      // The failures belong to the account: a new address (and even the right password) gets no more tries.
      const limited = expectEnvelope(await postFrom('127.0.0.12', api.url, '/auth/login', { email, password: PASSWORD }), 429, 'RATE_LIMIT_EXCEEDED');
      expect(limited.retry_after)
        .to.be.a('number')
        .within(1, 15 * 60);
      // The owner gets back in at once through the emailed reset link.
      expect((await postFrom('127.0.0.12', api.url, '/auth/forgot-password', { email })).status).to.equal(200);
      const token = await outboxToken(api.database.db, email, 'reset_password');
      expect((await postFrom('127.0.0.12', api.url, '/auth/reset-password', { token, password: `${PASSWORD} 2` })).status).to.equal(200);
      expect((await postFrom('127.0.0.12', api.url, '/auth/login', { email, password: `${PASSWORD} 2` })).status).to.equal(200);
    });

    it("one address spraying many accounts is stopped too (five accounts' worth of failures)", async () => {
      const statuses: number[] = [];
      for (let i = 0; i < MAX_FAILURES * 5 + 1; i++) statuses.push((await postFrom('127.0.0.13', api.url, '/auth/login', { email: uniqueEmail('spray'), password: 'a guess' }, spoofed(i))).status);
      expect(statuses.at(-2)).to.equal(401);
      expect(statuses.at(-1)).to.equal(429);
      // Another address is not affected.
      expect((await postFrom('127.0.0.14', api.url, '/auth/login', { email: uniqueEmail('spray'), password: 'a guess' })).status).to.equal(401);
    });

    it('behind one NAT address, a spray of wrong passwords makes the address wait seconds, not 15 minutes: an honest user behind it logs in after retry_after', async () => {
      const honest = uniqueEmail('behind-nat');
      await signup(api, { email: honest });
      for (let i = 0; i < MAX_FAILURES * 5; i++) expect((await postFrom('127.0.0.15', api.url, '/auth/login', { email: uniqueEmail('sprayed'), password: 'a guess' })).status).to.equal(401);
      const waiting = expectEnvelope(await postFrom('127.0.0.15', api.url, '/auth/login', { email: honest, password: PASSWORD }), 429, 'RATE_LIMIT_EXCEEDED');
      // The first delay of an address past its free failures is 2 s (api/auth/login-limiter.ts).
      expect(waiting.retry_after).to.be.within(1, 2);
      await new Promise((r) => setTimeout(r, waiting.retry_after * 1000 + 200));
      expect((await postFrom('127.0.0.15', api.url, '/auth/login', { email: honest, password: PASSWORD })).status).to.equal(200);
    });

    it('a burst of parallel guesses at one account is counted one by one: exactly SHOTFARM_LOGIN_MAX_FAILURES passwords are checked', async () => {
      const email = uniqueEmail('burst');
      await signup(api, { email });
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => postFrom('127.0.0.16', api.url, '/auth/login', { email, password: `parallel guess ${i}` })));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 401)).to.have.length(MAX_FAILURES);
      expect(statuses.filter((s) => s === 429)).to.have.length(20 - MAX_FAILURES);
    });

    for (const [path, body, answer, from] of [
      ['/auth/signup', { email: 'not an email', password: PASSWORD }, 400, '127.0.0.21'],
      ['/auth/forgot-password', { email: 'nobody@example.test' }, 200, '127.0.0.22'],
    ] as const) {
      it(`${path}: the per-address limit is not bypassed with new X-Forwarded-For values`, async () => {
        for (let i = 0; i < PER_MINUTE; i++) expect((await postFrom(from, api.url, path, body, spoofed(i))).status, `try ${i + 1}`).to.equal(answer);
        expectEnvelope(await postFrom(from, api.url, path, body, spoofed(PER_MINUTE)), 429, 'RATE_LIMIT_EXCEEDED');
        expect((await postFrom('127.0.0.23', api.url, path, body)).status, 'another address').to.equal(answer);
      });
    }

    it('behind the trusted proxy, the forwarded address is the client: two clients get separate limits, and what a client prepends is not believed', async () => {
      const viaProxy = (client: string, prepended = ''): Record<string, string> => ({ 'X-Forwarded-For': `${prepended}${client}` });
      const body = { email: 'not an email', password: PASSWORD };
      for (let i = 0; i < PER_MINUTE; i++) expect((await postFrom(PROXY, api.url, '/auth/signup', body, viaProxy('203.0.113.1', `192.0.2.${i}, `))).status).to.equal(400);
      expectEnvelope(await postFrom(PROXY, api.url, '/auth/signup', body, viaProxy('203.0.113.1', '192.0.2.200, ')), 429, 'RATE_LIMIT_EXCEEDED');
      // The second client behind the same proxy has its own budget.
      expect((await postFrom(PROXY, api.url, '/auth/signup', body, viaProxy('203.0.113.2'))).status).to.equal(400);
      // An IPv6 client is counted by its /64: picking new addresses from it buys nothing.
      for (let i = 0; i < PER_MINUTE; i++) expect((await postFrom(PROXY, api.url, '/auth/signup', body, viaProxy(`2001:db8:1:2::${i + 1}`))).status).to.equal(400);
      expectEnvelope(await postFrom(PROXY, api.url, '/auth/signup', body, viaProxy('2001:db8:1:2:ffff::1')), 429, 'RATE_LIMIT_EXCEEDED');
      expect((await postFrom(PROXY, api.url, '/auth/signup', body, viaProxy('2001:db8:1:3::1'))).status, 'another /64').to.equal(400);
      // Login's per-address count follows the forwarded client as well.
      const statuses: number[] = [];
      for (let i = 0; i < MAX_FAILURES * 5 + 1; i++)
        statuses.push((await postFrom(PROXY, api.url, '/auth/login', { email: uniqueEmail('proxied'), password: 'a guess' }, viaProxy('203.0.113.3'))).status);
      expect(statuses.at(-1)).to.equal(429);
      expect((await postFrom(PROXY, api.url, '/auth/login', { email: uniqueEmail('proxied'), password: 'a guess' }, viaProxy('203.0.113.4'))).status).to.equal(401);
    });
  });
}
