import type { Db } from '../db/connect.js';

/**
 * app_runs and app_events as durable queues in the database. A job is claimed by moving it to
 * `processing` with a lease (FOR UPDATE SKIP LOCKED: several control planes never claim the same job);
 * a job whose lease passed (its control plane died) is claimed again. The attempt number taken at claim
 * time fences the outcome: only the claimant of that attempt can record it.
 */
export type AppJobTable = 'app_runs' | 'app_events';

export interface ClaimedJob {
  table: AppJobTable;
  id: number;
  attempts: number;
  appConfigId: number;
  companyId: number;
  row: Record<string, unknown>;
}

export class AppJobQueue {
  constructor(private readonly db: Db) {}

  async claim(table: AppJobTable, limit: number, leaseSeconds: number): Promise<ClaimedJob[]> {
    if (limit <= 0) return [];
    const result = await this.db.raw(
      `
      UPDATE ${table} SET status = 'processing', attempts = attempts + 1, lease_until = now() + (? * interval '1 second'), updated_at = now()
      WHERE id IN (
        SELECT id FROM ${table}
        WHERE (status = 'queued' AND next_attempt_at <= now()) OR (status = 'processing' AND lease_until < now())
        ORDER BY next_attempt_at, id LIMIT ? FOR UPDATE SKIP LOCKED)
      RETURNING *`,
      [leaseSeconds, limit],
    );
    return (result.rows as Record<string, unknown>[]).map((row) => ({
      table,
      id: Number(row.id),
      attempts: Number(row.attempts),
      appConfigId: Number(row.app_config_id),
      companyId: Number(row.company_id),
      row,
    }));
  }

  /**
   * Milliseconds until a job of either table can be claimed (0: now; null: none queued or leased), in one
   * statement: the earliest queued job's next attempt, or the earliest lease that runs out (its control
   * plane may have died). The runner sleeps that long, and asks no claim while nothing is due.
   */
  async msToNextDue(): Promise<number | null> {
    const due = (table: AppJobTable): string => `(SELECT min(next_attempt_at) FROM ${table} WHERE status = 'queued'), (SELECT min(lease_until) FROM ${table} WHERE status = 'processing')`;
    const result = await this.db.raw(`SELECT least(${due('app_runs')}, ${due('app_events')}) AS next, now() AS now`);
    const row = (result.rows as { next: Date | string | null; now: Date | string }[])[0];
    if (!row?.next) return null;
    // Both times from the database's clock: no skew between it and this process.
    return Math.max(0, new Date(row.next).getTime() - new Date(row.now).getTime());
  }

  async finish(job: ClaimedJob, outcome: { output_url?: string; output_data?: Record<string, unknown> | null }): Promise<boolean> {
    const values: Record<string, unknown> = {
      status: 'finished',
      error: '',
      output_data: outcome.output_data === undefined || outcome.output_data === null ? null : JSON.stringify(outcome.output_data),
    };
    if (job.table === 'app_runs') values.output_url = outcome.output_url ?? '';
    return this.settle(job, values);
  }

  async fail(job: ClaimedJob, error: string): Promise<boolean> {
    return this.settle(job, { status: 'error', error });
  }

  /** Back to the queue for another attempt after `delaySeconds`; the last error stays visible meanwhile. */
  async retryLater(job: ClaimedJob, error: string, delaySeconds: number): Promise<boolean> {
    return this.settle(job, { status: 'queued', error, next_attempt_at: new Date(Date.now() + delaySeconds * 1000) });
  }

  /** Gives a job back untouched (the service is stopping): the attempt does not count. */
  async release(job: ClaimedJob): Promise<void> {
    await this.db(job.table)
      .where({ id: job.id, status: 'processing', attempts: job.attempts })
      .update({ status: 'queued', attempts: job.attempts - 1, lease_until: null, next_attempt_at: this.db.fn.now() });
  }

  private async settle(job: ClaimedJob, values: Record<string, unknown>): Promise<boolean> {
    const changed = await this.db(job.table)
      .where({ id: job.id, status: 'processing', attempts: job.attempts })
      .update({ ...values, lease_until: null, updated_at: this.db.fn.now() });
    return Number(changed) > 0;
  }
}
