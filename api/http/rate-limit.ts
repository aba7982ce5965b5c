import type { Next } from 'koa';
import { RateLimiterMemory, RateLimiterPostgres, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Db } from '../db/connect.js';
import { rateLimited } from '../../core/errors.js';
import { callerOf, type AppContext } from './state.js';

/**
 * Per-credential request limit over a one-minute window. Embedded mode counts in memory (one process);
 * with a Postgres DATABASE_URL the counts live in the database so every API process shares them.
 */
export async function createRateLimiter(perMinute: number, db: Db | null): Promise<RateLimiterAbstract | null> {
  if (perMinute <= 0) return null;
  const opts = { points: perMinute, duration: 60, keyPrefix: 'shotfarm_rl' };
  if (!db) return new RateLimiterMemory(opts);
  const limiter = await new Promise<RateLimiterPostgres>((resolve, reject) => {
    const created: RateLimiterPostgres = new RateLimiterPostgres(
      // When the database is briefly unreachable, count in memory rather than failing every request.
      { ...opts, storeClient: db, storeType: 'knex', tableName: 'rate_limits', clearExpiredByTimeout: true, insuranceLimiter: new RateLimiterMemory(opts) },
      (err?: Error) => (err ? reject(err) : resolve(created)),
    );
  });
  return limiter;
}

/** Counts per credential; routes that take none (signup, login) pass a key of their own (the client's address). */
export function rateLimit(limiter: RateLimiterAbstract | null, keyOf: (ctx: AppContext) => string = (ctx) => callerOf(ctx).credential) {
  return async function rateLimitMiddleware(ctx: AppContext, next: Next): Promise<void> {
    if (limiter) {
      try {
        await limiter.consume(keyOf(ctx));
      } catch (res) {
        if (res instanceof RateLimiterRes) throw rateLimited(Math.max(1, Math.ceil(res.msBeforeNext / 1000)));
        throw res;
      }
    }
    await next();
  };
}
