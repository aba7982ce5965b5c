import type { Db } from '../db/connect.js';
import type { Logger } from '../../core/logger.js';
import type { MonitorComparer } from './monitor-comparer.js';
import type { MonitorRow } from './monitor-record.js';
import { nextRunAfter } from './monitor-schedule.js';
import type { MonitorService } from './monitor-service.js';

/** Monitors claimed per poll: a backlog (after an outage) is worked through a poll at a time. */
const CLAIMS_PER_POLL = 50;

/**
 * The durable schedule. Every API replica polls; a due run is claimed in the database by moving the
 * monitor's `next_run_at` from the value it read to the next period (a compare-and-set: of two replicas
 * that read the same value, one updates a row, the other none), in the transaction that inserts the run
 * for that period (unique per monitor and period, a second guard). The next period is the first one after
 * now, so periods missed while every replica was down are caught up by one run.
 */
export class MonitorScheduler {
  private timer: NodeJS.Timeout | null = null;
  private polling: Promise<void> | null = null;
  private stopped = false;

  constructor(
    private readonly db: Db,
    private readonly service: MonitorService,
    private readonly comparer: MonitorComparer,
    private readonly pollMs: number,
    private readonly log: Logger,
  ) {}

  start(): void {
    this.stopped = false;
    const loop = (): void => {
      this.polling = this.poll()
        .then(
          () => undefined,
          (err: unknown) => this.log.error({ err }, 'the monitor schedule could not poll'),
        )
        .finally(() => {
          this.polling = null;
          if (!this.stopped) this.timer = setTimeout(loop, this.pollMs);
        });
    };
    loop();
  }

  async stop(): Promise<void> {
    this.stopped = true;
    if (this.timer) clearTimeout(this.timer);
    await this.polling;
    await this.comparer.drain();
  }

  /** One pass: claim and start the due runs, compare runs that ended unheard, end orphaned runs. Returns the runs started. */
  async poll(now = new Date()): Promise<number> {
    const due: MonitorRow[] = await this.db('monitors').where({ status: 'active' }).where('next_run_at', '<=', now).orderBy('next_run_at').limit(CLAIMS_PER_POLL);
    let started = 0;
    for (const monitor of due) {
      if (this.stopped) break;
      const runId = await this.claim(monitor, now);
      if (runId === null) continue;
      await this.service.startRun(monitor, runId);
      started++;
    }
    await this.comparer.sweep();
    await this.service.endOrphanRuns(now);
    return started;
  }

  private async claim(monitor: MonitorRow, now: Date): Promise<number | null> {
    const period = new Date(monitor.next_run_at);
    const next = nextRunAfter(monitor, period, now);
    return this.db.transaction(async (trx) => {
      const moved = await trx('monitors').where({ id: monitor.id, status: 'active', next_run_at: period }).update({ next_run_at: next, last_run_at: now });
      if (Number(moved) === 0) return null;
      const [run] = await trx('monitor_runs')
        .insert({ monitor_id: monitor.id, company_id: monitor.company_id, trigger: 'schedule', scheduled_for: period })
        .onConflict(['monitor_id', 'trigger', 'scheduled_for'])
        .ignore()
        .returning('id');
      return run ? Number(run.id) : null;
    });
  }
}
