import { expect } from 'chai';
import { LimitCounters } from '../../api/auth/limit-counters.js';
import { LoginLimiter } from '../../api/auth/login-limiter.js';
import { ApiError } from '../../core/errors.js';
import { migrateLatest } from '../../api/db/migrate.js';
import { DATABASE_KINDS, openTestDatabase, type TestDatabase } from '../support/databases.js';

const MAX_FAILURES = 2;
/** Five accounts' worth of failures are free per address. */
const FREE = MAX_FAILURES * 5;
const MINUTE = 60_000;

/**
 * The login limiter over the real database, with a clock the test moves (no waiting): the delays an address
 * gets, the lock of an account, when each is forgotten, and two API replicas counting together.
 */
for (const kind of DATABASE_KINDS) {
  describe(`login limiter: a lock per account, progressive delays per address (${kind})`, function () {
    this.timeout(60_000);
    let database: TestDatabase;
    let clock: number;
    const now = (): Date => new Date(clock);
    let limiter: LoginLimiter;
    let seq = 0;
    const fresh = (tag: string): string => `${tag}-${(seq += 1)}@example.test`;

    /** The retry_after of a refused attempt, or 0 when the attempt was let through (and counted). */
    async function attempt(email: string, address: string, on: LoginLimiter = limiter): Promise<number> {
      try {
        await on.attempt(email, address);
        return 0;
      } catch (err) {
        if (err instanceof ApiError && err.status === 429) return err.extra.retryAfter as number;
        throw err;
      }
    }

    before(async () => {
      database = await openTestDatabase(kind);
      await migrateLatest(database.db);
    });
    beforeEach(() => {
      clock = Date.parse('2030-01-01T00:00:00Z') + seq * 3_600_000;
      limiter = new LoginLimiter(new LimitCounters(database.db, now), MAX_FAILURES);
    });
    after(async () => database?.drop());

    it('an address past its free failures waits 2 s, then 4, 8, 16, 32, and never more than a minute; the wait ends on time', async () => {
      const address = '192.0.2.10';
      for (let i = 0; i < FREE - 1; i++) expect(await attempt(fresh('spray'), address)).to.equal(0);
      const waits: number[] = [];
      for (let i = 0; i < 8; i++) {
        expect(await attempt(fresh('spray'), address), `failure ${FREE + i} is checked`).to.equal(0);
        const wait = await attempt(fresh('spray'), address);
        waits.push(wait);
        clock += wait * 1000 - 1;
        expect(await attempt(fresh('spray'), address), 'a millisecond early').to.equal(1);
        clock += 1;
      }
      expect(waits).to.deep.equal([2, 4, 8, 16, 32, 60, 60, 60]);
      // Another address, and the accounts sprayed, are not slowed.
      expect(await attempt(fresh('other'), '192.0.2.11')).to.equal(0);
    });

    it("an address's failures are forgotten after 15 minutes without one, not while it keeps failing", async () => {
      const address = '192.0.2.20';
      for (let i = 0; i < FREE; i++) expect(await attempt(fresh('spray'), address)).to.equal(0);
      expect(await attempt(fresh('spray'), address)).to.equal(2);
      // A failure every 14 minutes keeps the count: the delays go on growing.
      for (const want of [4, 8]) {
        clock += 14 * MINUTE;
        expect(await attempt(fresh('spray'), address)).to.equal(0);
        expect(await attempt(fresh('spray'), address)).to.equal(want);
      }
      clock += 15 * MINUTE;
      for (let i = 0; i < FREE; i++) expect(await attempt(fresh('spray'), address), `free again: ${i}`).to.equal(0);
    });

    it('an account is locked after SHOTFARM_LOGIN_MAX_FAILURES from any addresses, for 15 minutes from its first failure; a success or a reset clears it', async () => {
      const email = fresh('victim');
      expect(await attempt(email, '198.51.100.1')).to.equal(0);
      clock += 5 * MINUTE;
      expect(await attempt(email, '198.51.100.2')).to.equal(0);
      expect(await attempt(email, '198.51.100.3')).to.equal(10 * 60);
      clock += 10 * MINUTE - 1000;
      expect(await attempt(email, '198.51.100.4')).to.equal(1);
      clock += 1000;
      expect(await attempt(email, '198.51.100.4')).to.equal(0);
      // Below the limit, a success forgives the account's failures.
      await limiter.succeeded(email, '198.51.100.4');
      expect(await attempt(email, '198.51.100.5')).to.equal(0);
      expect(await attempt(email, '198.51.100.5')).to.equal(0);
      expect(await attempt(email, '198.51.100.5')).to.be.above(0);
      await limiter.passwordReset(email);
      expect(await attempt(email, '198.51.100.6')).to.equal(0);
    });

    it('a success gives its address back only the failure its own attempt was counted as', async () => {
      const address = '192.0.2.30';
      for (let i = 0; i < FREE - 1; i++) expect(await attempt(fresh('spray'), address)).to.equal(0);
      const own = fresh('own');
      expect(await attempt(own, address)).to.equal(0);
      await limiter.succeeded(own, address);
      // Still FREE - 1 failures: one more is free, the next waits.
      expect(await attempt(fresh('spray'), address)).to.equal(0);
      expect(await attempt(fresh('spray'), address)).to.equal(2);
    });

    it('two API replicas over one database count together', async () => {
      const replica = new LoginLimiter(new LimitCounters(database.db, now), MAX_FAILURES);
      const email = fresh('replicas');
      expect(await attempt(email, '203.0.113.1', limiter)).to.equal(0);
      expect(await attempt(email, '203.0.113.2', replica)).to.equal(0);
      expect(await attempt(email, '203.0.113.3', limiter)).to.be.above(0);
      expect(await attempt(email, '203.0.113.3', replica)).to.be.above(0);
    });
  });
}
