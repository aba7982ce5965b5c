import type { Db } from '../db/connect.js';
import { installationScreenshotStats } from '../screenshots/screenshot-reads.js';

/** A client is active when it created a screenshot within this window (30 days: one billing month). */
const ACTIVE_WINDOW_MS = 30 * 24 * 3600 * 1000;
/** `screenshots.last_24h` and `failed_24h` look back one day. */
const DAY_MS = 24 * 3600 * 1000;
/** Users listed in `top_users`. */
const TOP_USERS = 10;

/** The spec's Admin overview. */
export interface AdminOverview {
  totals: { users: number; companies: number; screenshots: number; batches: number; active_clients: number };
  screenshots: { last_24h: number; failed_24h: number };
  top_users: { user_id: number; email: string; company_name: string; screenshots: number }[];
}

/**
 * The whole installation at a glance, across every account. `top_users` ranks users by screenshots
 * created in the last 30 days: a screenshot counts for the user of the API key that created it, or,
 * when the key belongs to no user (or a dashboard session created it), for the account's first user.
 */
export async function adminOverview(db: Db, now: Date = new Date()): Promise<AdminOverview> {
  const activeSince = new Date(now.getTime() - ACTIVE_WINDOW_MS);
  const daySince = new Date(now.getTime() - DAY_MS);
  const count = async (table: string): Promise<number> => Number((await db(table).count('* as n').first())?.n ?? 0);
  const [users, companies, batches, shots] = await Promise.all([count('users'), count('companies'), count('batches'), installationScreenshotStats(db, { activeSince, daySince, topUsers: TOP_USERS })]);
  return {
    totals: { users, companies, screenshots: shots.total, batches, active_clients: shots.activeClients },
    screenshots: { last_24h: shots.lastDay, failed_24h: shots.failedLastDay },
    top_users: shots.topUsers,
  };
}
