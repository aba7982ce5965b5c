import { RateLimiterMemory } from 'rate-limiter-flexible';
import { rateLimited } from '../../core/errors.js';
import { addressLimitKey } from '../http/forwarded-client.js';

/**
 * 15 minutes: with the default of 10 failures, a guesser gets 40 tries an hour per account, however many
 * addresses it has, while a user who mistyped waits at most a quarter of an hour.
 */
const WINDOW_SECONDS = 15 * 60;

/**
 * An address may be a NAT or office gateway in front of several users, whose honest typos should not lock
 * each other out: it may fail this many accounts' worth of failures. Password spraying (one guess at each
 * of many accounts) from one address is then bounded at 4 x 5 x 10 = 200 guesses an hour by default.
 */
const ADDRESS_FAILURES_PER_ACCOUNT_LIMIT = 5;

/**
 * Brute-force protection of POST /auth/login. Failed attempts are counted twice: per account (the email,
 * from any address, so new X-Forwarded-For values or a botnet buy no extra guesses) and per client
 * address (any email, so one address cannot spray many accounts; an IPv6 client counts by its /64).
 * Past either limit login answers 429 (with retry_after) without checking the password. Counted in
 * memory: per API process, reset by a restart.
 *
 * Lock-out of a real user: anyone can spend an account's failures, so anyone can keep it locked by
 * failing again every window. What bounds it: the window is fixed (it starts at the first failure and
 * refused attempts count for nothing, so a lock lasts at most 15 minutes after the attacker's last
 * counted failure), and a password reset (the emailed link proves the inbox) lifts the account's count at
 * once (passwordReset). A success clears the account's count (only the password's owner can), never the
 * address's: otherwise an attacker would log into an account of its own between guesses.
 */
export class LoginLimiter {
  private readonly byAccount: RateLimiterMemory;
  private readonly byAddress: RateLimiterMemory;

  constructor(private readonly maxFailures: number) {
    this.byAccount = new RateLimiterMemory({ points: maxFailures, duration: WINDOW_SECONDS, keyPrefix: 'login_failures_account' });
    this.byAddress = new RateLimiterMemory({ points: maxFailures * ADDRESS_FAILURES_PER_ACCOUNT_LIMIT, duration: WINDOW_SECONDS, keyPrefix: 'login_failures_address' });
  }

  /** Throws 429 when this account, or this address, has used up its failures. */
  async assertAllowed(email: string, address: string): Promise<void> {
    const account = await this.byAccount.get(email);
    const fromAddress = await this.byAddress.get(addressLimitKey(address));
    const waits: number[] = [];
    if (account && account.consumedPoints >= this.maxFailures) waits.push(account.msBeforeNext);
    if (fromAddress && fromAddress.consumedPoints >= this.maxFailures * ADDRESS_FAILURES_PER_ACCOUNT_LIMIT) waits.push(fromAddress.msBeforeNext);
    if (waits.length > 0) throw rateLimited(Math.max(1, Math.ceil(Math.max(...waits) / 1000)));
  }

  async failed(email: string, address: string): Promise<void> {
    await this.byAccount.penalty(email, 1);
    await this.byAddress.penalty(addressLimitKey(address), 1);
  }

  async succeeded(email: string): Promise<void> {
    await this.byAccount.delete(email);
  }

  /** A password was reset through the emailed link: the account's owner is back, its failures are forgiven. */
  async passwordReset(email: string): Promise<void> {
    await this.byAccount.delete(email);
  }
}
