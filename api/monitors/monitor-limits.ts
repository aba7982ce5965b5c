import type { Knex } from 'knex';
import { fieldError, forbidden } from '../../core/errors.js';
import type { MonitorConfig } from '../../core/config/config.js';
import { lockCompany } from '../accounts/lock-company.js';

/**
 * An account's limits on monitors (issue 25: nothing stopped one account from scheduling captures without
 * end): how many it may have, and how many scheduled runs an hour its active monitors may ask for together.
 * Both are checked under the account's row lock, so two concurrent creates cannot pass a limit together.
 */

/** Runs an hour a schedule asks for: 3600 / its seconds between runs (a cron expression's shortest gap). */
export const runsPerHourOf = (intervalSeconds: number): number => 3600 / intervalSeconds;

/** A rate as people read it: whole, or with at most two decimals. */
const shown = (n: number): string => String(Math.round(n * 100) / 100);

export type MonitorLimits = Pick<MonitorConfig, 'perAccount' | 'runsPerHour'>;

/** What a create, update or resume would make of one monitor's schedule. */
export interface ScheduleChange {
  /** the monitor changed (left out of the others), none for a new one */
  monitorId: number | null;
  intervalSeconds: number;
  /** the field a refusal names: the schedule's own */
  field: 'interval' | 'cron';
}

/**
 * Locks the account and checks that the change fits: a new monitor needs room under `perAccount`, and the
 * schedule's runs with those of the account's other active monitors stay within `runsPerHour`.
 */
export async function checkMonitorLimits(trx: Knex.Transaction, companyId: number, limits: MonitorLimits, change: ScheduleChange): Promise<void> {
  await lockCompany(trx, companyId).first('id');
  if (change.monitorId === null) {
    const [row] = await trx('monitors').where({ company_id: companyId }).count('* as n');
    if (Number(row?.n ?? 0) >= limits.perAccount) throw forbidden(`The account already has ${limits.perAccount} monitors, the most it may have: delete one first`);
  }
  const others: { interval_seconds: number }[] = await trx('monitors')
    .where({ company_id: companyId, status: 'active' })
    .modify((q) => void (change.monitorId !== null && q.whereNot({ id: change.monitorId })))
    .select('interval_seconds');
  const taken = others.reduce((sum, m) => sum + runsPerHourOf(Number(m.interval_seconds)), 0);
  const asked = runsPerHourOf(change.intervalSeconds);
  // A thousandth of a run of slack: 3600/7 summed seven times is not exactly 3600.
  if (taken + asked > limits.runsPerHour + 1e-3) {
    throw fieldError(
      change.field,
      `asks for ${shown(asked)} runs an hour, and the account's other active monitors already ask for ${shown(taken)} of the ${limits.runsPerHour} allowed: run less often, or pause another monitor`,
    );
  }
}
