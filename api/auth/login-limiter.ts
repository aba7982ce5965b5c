import { rateLimited } from '../../core/errors.js';
import { addressLimitKey } from '../http/forwarded-client.js';
import { secondsUntil, type LimitCounters, type LimitRow } from './limit-counters.js';

/**
 * 15 minutes: with the default of 10 failures, a guesser gets 40 tries an hour per account, however many
 * addresses it has, while a user who mistyped waits at most a quarter of an hour.
 */
const WINDOW_MS = 15 * 60 * 1000;

/**
 * An address may be a NAT or office gateway in front of many users, whose honest typos must not slow each
 * other down: it may fail this many accounts' worth of failures before its delays begin (50 by default).
 */
const ADDRESS_FAILURES_PER_ACCOUNT_LIMIT = 5;

/**
 * The delays of an address past its free failures: 2 s after the first, doubling (4, 8, 16, 32) up to a
 * minute. A minute is the longest anyone behind a shared address waits for one try, and it bounds password
 * spraying (one guess at each of many accounts) from that address to 60 guesses an hour once the free
 * failures are spent (the lock of the old limiter allowed 200 an hour, and locked out everyone else behind
 * the address for 15 minutes).
 */
const FIRST_DELAY_MS = 2000;
const MAX_DELAY_MS = 60_000;

/** How long an address waits before its next try, after `failures` counted failures (`free` of them without delay). */
export function addressDelayMs(failures: number, free: number): number {
  if (failures < free) return 0;
  return Math.min(MAX_DELAY_MS, FIRST_DELAY_MS * 2 ** Math.min(failures - free, 16));
}

const empty = (now: Date): LimitRow => ({ count: 0, windowStart: now, lastAt: now, blockedUntil: null });

/**
 * Brute-force protection of POST /auth/login, as OWASP's authentication guidance puts it: a lock per
 * account and progressive delays per client address.
 * - Per account (the email, from any address, so new X-Forwarded-For values or a botnet buy no extra
 *   guesses): `maxFailures` failures within 15 minutes of the first lock the account until those 15
 *   minutes are over. A success clears the count (only the password's owner can); so does a password
 *   reset (the emailed link proves the inbox), at once.
 * - Per client address (an IPv6 client by its /64): five accounts' worth of failures are free, then each
 *   failure makes the address wait before its next try, 2 s doubling to at most a minute (addressDelayMs).
 *   Nobody behind a shared address is locked out: the wait is never longer than a minute. The count is
 *   forgotten after 15 minutes without a failure from the address.
 * While either holds, login answers 429 with retry_after without checking the password.
 *
 * Every attempt is counted as a failure before its password is checked, under the counters' row locks
 * (api/auth/limit-counters.ts), and given back when the password was right: a burst of parallel guesses
 * is counted one by one, and every API replica sees the same counts.
 */
export class LoginLimiter {
  private readonly addressFree: number;

  constructor(
    private readonly counters: LimitCounters,
    private readonly maxFailures: number,
  ) {
    this.addressFree = maxFailures * ADDRESS_FAILURES_PER_ACCOUNT_LIMIT;
  }

  /** Counts an attempt at `email` from `address`, or throws 429 when the account is locked or the address must wait. */
  async attempt(email: string, address: string): Promise<void> {
    const addressKey = addressLimitKey(address);
    await this.counters.transaction(async (trx) => {
      const now = this.counters.now();
      let account = await this.counters.lock(trx, 'login_account', email);
      let fromAddress = await this.counters.lock(trx, 'login_address', addressKey);
      // The account's window is fixed from its first failure; the address's slides with its last.
      if (now.getTime() - account.windowStart.getTime() >= WINDOW_MS) account = empty(now);
      if (now.getTime() - fromAddress.lastAt.getTime() >= WINDOW_MS) fromAddress = empty(now);
      const waits: Date[] = [];
      if (account.count >= this.maxFailures) waits.push(new Date(account.windowStart.getTime() + WINDOW_MS));
      if (fromAddress.blockedUntil !== null && fromAddress.blockedUntil > now) waits.push(fromAddress.blockedUntil);
      if (waits.length > 0) throw rateLimited(Math.max(...waits.map((w) => secondsUntil(w, now))));
      const failures = fromAddress.count + 1;
      await this.counters.save(trx, 'login_account', email, { ...account, count: account.count + 1, lastAt: now });
      await this.counters.save(trx, 'login_address', addressKey, { ...fromAddress, count: failures, lastAt: now, blockedUntil: new Date(now.getTime() + addressDelayMs(failures, this.addressFree)) });
    });
  }

  /**
   * The password was right: the account's failures are forgiven, and the address gets back the failure
   * its attempt was counted as, and the delay that failure set (never more: an attacker logging into an
   * account of its own between guesses must not wipe out its failures).
   */
  async succeeded(email: string, address: string): Promise<void> {
    const addressKey = addressLimitKey(address);
    await this.counters.forget('login_account', email);
    await this.counters.transaction(async (trx) => {
      const row = await this.counters.lock(trx, 'login_address', addressKey);
      if (row.count === 0) return;
      // The delay is the one of the failures left, from the address's last attempt.
      const count = row.count - 1;
      await this.counters.save(trx, 'login_address', addressKey, { ...row, count, blockedUntil: new Date(row.lastAt.getTime() + addressDelayMs(count, this.addressFree)) });
    });
  }

  /** A password was reset (or changed) by its owner: the account's failures are forgiven. */
  async passwordReset(email: string): Promise<void> {
    await this.counters.forget('login_account', email);
  }
}
