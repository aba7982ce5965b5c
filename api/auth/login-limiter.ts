import { RateLimiterMemory } from 'rate-limiter-flexible';
import { rateLimited } from '../../core/errors.js';

/**
 * 15 minutes: with the default of 10 failures, a guesser gets 40 tries an hour per email and address,
 * while a user who mistyped waits at most a quarter of an hour.
 */
const WINDOW_SECONDS = 15 * 60;

/**
 * Brute-force protection of POST /auth/login: failed attempts are counted per email and client address,
 * and past the limit login answers 429 (with retry_after) without checking the password. A success clears
 * the count. Counted in memory: per API process, reset by a restart.
 */
export class LoginLimiter {
  private readonly failures: RateLimiterMemory;

  constructor(private readonly maxFailures: number) {
    this.failures = new RateLimiterMemory({ points: maxFailures, duration: WINDOW_SECONDS, keyPrefix: 'login_failures' });
  }

  private static key(email: string, address: string): string {
    return `${email}|${address}`;
  }

  /** Throws 429 when this email and address have used up their failures. */
  async assertAllowed(email: string, address: string): Promise<void> {
    const res = await this.failures.get(LoginLimiter.key(email, address));
    if (res && res.consumedPoints >= this.maxFailures) throw rateLimited(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
  }

  async failed(email: string, address: string): Promise<void> {
    await this.failures.penalty(LoginLimiter.key(email, address), 1);
  }

  async succeeded(email: string, address: string): Promise<void> {
    await this.failures.delete(LoginLimiter.key(email, address));
  }
}
