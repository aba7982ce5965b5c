import type { Db } from '../../core/db/connect.js';

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

  /** Seconds until the next queued job is due (null: none queued), so the runner sleeps no longer than needed. */
  async secondsToNextDue(): Promise<number | null> {
    const rows = await Promise.all((['app_runs', 'app_events'] as const).map((t) => this.db(t).where({ status: 'queued' }).min('next_attempt_at as next').first()));
    const due = rows.map((r) => (r?.next ? new Date(r.next as string).getTime() : null)).filter((t): t is number => t !== null);
    return due.length === 0 ? null : Math.max(0, (Math.min(...due) - Date.now()) / 1000);
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
