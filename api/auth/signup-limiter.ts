import type { Knex } from 'knex';
import { ApiError } from '../../core/errors.js';
import { addressLimitKey } from '../http/forwarded-client.js';
import { secondsUntil, type LimitCounters, type LimitRow } from './limit-counters.js';

/** The window of SHOTFARM_SIGNUPS_PER_ADDRESS_PER_DAY, fixed from the first signup of an address in it. */
const WINDOW_MS = 24 * 3600 * 1000;

const tooMany = (retryAfter: number): ApiError =>
  new ApiError(429, 'RATE_LIMIT_EXCEEDED', 'Too many accounts were opened from this address today: try again later, or ask the operator', { retryAfter });

/**
 * SHOTFARM_SIGNUPS_PER_ADDRESS_PER_DAY: how many accounts POST /auth/signup opens per client address (the
 * same address the login limit sees: the connection's, or the forwarded one behind a trusted proxy; an
 * IPv6 client by its /64) in 24 hours. Only accounts opened count (a refused signup does not). 0: no limit.
 */
export class SignupLimiter {
  constructor(
    private readonly counters: LimitCounters,
    private readonly perDay: number,
  ) {}

  /** 429 when the address has opened its accounts for the day; a read without a lock, before the password is hashed. */
  async assertAllowed(address: string): Promise<void> {
    if (this.perDay === 0) return;
    const row = await this.counters.read('signup_address', addressLimitKey(address));
    const wait = row && this.spent(row, this.counters.now());
    if (wait) throw tooMany(wait);
  }

  /** Counts one account opened, inside the transaction that opens it (undone with it); 429 when the day's accounts are spent. */
  async count(trx: Knex.Transaction, address: string): Promise<void> {
    if (this.perDay === 0) return;
    const key = addressLimitKey(address);
    const now = this.counters.now();
    const row = await this.counters.lock(trx, 'signup_address', key);
    const wait = this.spent(row, now);
    if (wait) throw tooMany(wait);
    const current = now.getTime() - row.windowStart.getTime() < WINDOW_MS ? row : { ...row, count: 0, windowStart: now };
    await this.counters.save(trx, 'signup_address', key, { ...current, count: current.count + 1, lastAt: now });
  }

  /** Seconds until the address may open another account, or 0 when it may now. */
  private spent(row: LimitRow, now: Date): number {
    const end = new Date(row.windowStart.getTime() + WINDOW_MS);
    return row.count >= this.perDay && end > now ? secondsUntil(end, now) : 0;
  }
}
