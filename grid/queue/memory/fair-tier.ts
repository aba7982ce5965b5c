import type { CaptureJob } from '../../../core/contracts/job-queue.js';

/** A queued job of the in-process queue and how often it has been delivered so far. */
export interface QueuedEntry {
  job: CaptureJob;
  deliveries: number;
}

/**
 * The waiting jobs of one tier, shared fairly between accounts: each company has its own FIFO, and
 * companies take turns (round robin), so one account's batch of thousands cannot delay another
 * account's jobs by more than one job per turn.
 *
 * Companies live in a Map, whose iteration order is insertion order: the front company is next, and a
 * company that was served moves to the back. Taking a job scans for the first one the consumer accepts
 * (browser, country); in embedded mode every job usually matches the one agent, so the scan stops early.
 */
export class FairTier {
  private readonly companies = new Map<number, QueuedEntry[]>();
  private count = 0;

  get size(): number {
    return this.count;
  }

  push(entry: QueuedEntry, front = false): void {
    const list = this.companies.get(entry.job.companyId);
    if (list) {
      if (front) list.unshift(entry);
      else list.push(entry);
    } else {
      this.companies.set(entry.job.companyId, [entry]);
    }
    this.count += 1;
  }

  /** Takes the next job `accepts` allows, from the company whose turn it is. */
  take(accepts: (job: CaptureJob) => boolean): QueuedEntry | undefined {
    for (const [companyId, list] of this.companies) {
      const index = list.findIndex((entry) => accepts(entry.job));
      if (index < 0) continue;
      const [entry] = list.splice(index, 1);
      // Served: to the back of the rotation (or out of it when its queue is empty).
      this.companies.delete(companyId);
      if (list.length > 0) this.companies.set(companyId, list);
      this.count -= 1;
      return entry;
    }
    return undefined;
  }

  /** Removes the jobs whose record id is in `ids`; returns them. */
  remove(ids: ReadonlySet<number>): QueuedEntry[] {
    const removed: QueuedEntry[] = [];
    for (const [companyId, list] of this.companies) {
      const kept: QueuedEntry[] = [];
      for (const entry of list) (ids.has(entry.job.spec.id) ? removed : kept).push(entry);
      if (kept.length === list.length) continue;
      if (kept.length > 0) this.companies.set(companyId, kept);
      else this.companies.delete(companyId);
    }
    this.count -= removed.length;
    return removed;
  }

  /** Every queued job, in no particular order (for depth). */
  *jobs(): Iterable<CaptureJob> {
    for (const list of this.companies.values()) for (const entry of list) yield entry.job;
  }

  clear(): void {
    this.companies.clear();
    this.count = 0;
  }
}
