import type { Knex } from 'knex';
import type { Db } from '../db/connect.js';

/** What a counter counts: failed logins of one account or of one client address, signups of one address. */
export type LimitKind = 'login_account' | 'login_address' | 'signup_address';

/** One counter: `count` events since `windowStart`, the last at `lastAt`; nothing is tried before `blockedUntil`. */
export interface LimitRow {
  count: number;
  windowStart: Date;
  lastAt: Date;
  blockedUntil: Date | null;
}

/** A row older than the longest window (a signup day) counts nothing any more. */
const STALE_AFTER_MS = 24 * 3600 * 1000;
/** Stale rows are deleted at most this often per process: they are harmless, only clutter. */
const PRUNE_EVERY_MS = 10 * 60 * 1000;

const toRow = (r: Record<string, unknown>): LimitRow => ({
  count: Number(r.count),
  windowStart: new Date(r.window_start as Date),
  lastAt: new Date(r.last_at as Date),
  blockedUntil: r.blocked_until === null || r.blocked_until === undefined ? null : new Date(r.blocked_until as Date),
});

/**
 * The counters of the login and signup limits, in the `auth_limits` table: every API replica counts
 * together, a restart forgets nothing, and a counter is changed under its row lock, so attempts sent in
 * parallel are counted one after the other (a burst cannot all pass a check made before any was counted).
 * Times come from `now` (tests move it), never from the database's clock.
 */
export class LimitCounters {
  private lastPruned = 0;

  constructor(
    private readonly db: Db,
    readonly now: () => Date = () => new Date(),
  ) {}

  /** Runs `fn` in a transaction. */
  transaction<T>(fn: (trx: Knex.Transaction) => Promise<T>): Promise<T> {
    return this.db.transaction(fn);
  }

  /** The counter, locked until `trx` ends; a counter never used reads as zero events now. */
  async lock(trx: Knex.Transaction, kind: LimitKind, key: string): Promise<LimitRow> {
    const now = this.now();
    // Made first when missing, so that two first events lock the same row instead of racing to insert it.
    await trx('auth_limits').insert({ kind, key, count: 0, window_start: now, last_at: now }).onConflict(['kind', 'key']).ignore();
    const row = await trx('auth_limits').where({ kind, key }).forUpdate().first();
    return toRow(row as Record<string, unknown>);
  }

  /** The counter as it stands, without a lock (a quick check before expensive work), or null. */
  async read(kind: LimitKind, key: string): Promise<LimitRow | null> {
    const row = await this.db('auth_limits').where({ kind, key }).first();
    return row ? toRow(row as Record<string, unknown>) : null;
  }

  async save(trx: Knex.Transaction, kind: LimitKind, key: string, row: LimitRow): Promise<void> {
    await trx('auth_limits').where({ kind, key }).update({ count: row.count, window_start: row.windowStart, last_at: row.lastAt, blocked_until: row.blockedUntil });
    this.pruneNowAndThen();
  }

  async forget(kind: LimitKind, key: string): Promise<void> {
    await this.db('auth_limits').where({ kind, key }).delete();
  }

  private pruneNowAndThen(): void {
    const now = this.now().getTime();
    if (now - this.lastPruned < PRUNE_EVERY_MS) return;
    this.lastPruned = now;
    this.db('auth_limits')
      .where('last_at', '<', new Date(now - STALE_AFTER_MS))
      .delete()
      .catch(() => undefined);
  }
}

/** Seconds from `now` until `until`, at least 1: what a 429's retry_after says. */
export const secondsUntil = (until: Date, now: Date): number => Math.max(1, Math.ceil((until.getTime() - now.getTime()) / 1000));
