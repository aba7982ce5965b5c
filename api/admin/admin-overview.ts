import type { Db } from '../db/connect.js';

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
  const [users, companies, screenshots, batches, active, day, top] = await Promise.all([
    count('users'),
    count('companies'),
    count('screenshots'),
    count('batches'),
    db('screenshots')
      .where('created_at', '>=', activeSince)
      .countDistinct('company_id as n')
      .first()
      .then((r) => Number(r?.n ?? 0)),
    db('screenshots').where('created_at', '>=', daySince).first(db.raw('count(*) as total'), db.raw("count(*) filter (where status = 'error') as failed")),
    db.raw(
      `
      with owners as (select company_id, min(id) as user_id from users group by company_id)
      select u.id as user_id, u.email, c.name as company_name, count(*) as screenshots
      from screenshots s
      left join api_keys k on k.id = s.api_key_id
      left join owners o on o.company_id = s.company_id
      join users u on u.id = coalesce(k.user_id, o.user_id)
      join companies c on c.id = s.company_id
      where s.created_at >= ?
      group by u.id, u.email, c.name
      order by screenshots desc, u.id
      limit ?`,
      [activeSince, TOP_USERS],
    ),
  ]);
  return {
    totals: { users, companies, screenshots, batches, active_clients: active },
    screenshots: { last_24h: Number(day?.total ?? 0), failed_24h: Number(day?.failed ?? 0) },
    top_users: (top.rows as Record<string, unknown>[]).map((r) => ({ user_id: Number(r.user_id), email: String(r.email), company_name: String(r.company_name), screenshots: Number(r.screenshots) })),
  };
}
