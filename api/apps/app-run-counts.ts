import type { Db } from '../db/connect.js';

/**
 * App runs by app type and status, for the `shotfarm_app_runs` gauge. One grouped count per scrape; the
 * label values are bounded (the installed app types times the run statuses).
 */
export async function appRunCounts(db: Db): Promise<{ type: string; status: string; count: number }[]> {
  const rows: { type: string; status: string; count: string | number }[] = await db('app_runs')
    .join('app_configs', 'app_configs.id', 'app_runs.app_config_id')
    .groupBy('app_configs.type', 'app_runs.status')
    .select('app_configs.type as type', 'app_runs.status as status')
    .count({ count: '*' });
  return rows.map((r) => ({ type: r.type, status: r.status, count: Number(r.count) }));
}
