import type { CaptureSpec } from '../../core/capture-spec.js';
import { HIGH_PRIORITY_THRESHOLD, type CaptureJob, type JobQueue, type QueueTier } from '../../core/contracts/job-queue.js';
import type { NodeStatus } from '../../core/contracts/node-registry.js';
import { serviceUnavailable } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { Admission } from '../../grid/scheduling/admission.js';
import { routeJob, type Route } from '../../grid/scheduling/routing.js';
import type { ScreenshotRecords } from '../screenshots/screenshot-records.js';

/** Jobs of one dispatch queued concurrently (see dispatch): enough to hide NATS round trips, few enough not to flood it. */
const ENQUEUE_AT_ONCE = 16;

/** The error a record carries when its job could not be queued. */
export const NOT_QUEUED = 'The job could not be queued; nothing was charged';

/** A screenshot the farm must capture: its record id, account and normalised spec. */
export interface FarmWork {
  id: number;
  companyId: number;
  priority: number;
  spec: CaptureSpec;
  route: Route;
  /** the record's request_id ('' or absent: none), carried in the job to the agent's log lines */
  requestId?: string;
}

/**
 * The API's door to the farm: admission before records exist, routing decided with the live nodes,
 * then one queued job per record (its id is the queue's de-duplication id), or the record ends.
 */
export class FarmDispatcher {
  constructor(
    private readonly queue: JobQueue,
    private readonly admission: Admission,
    private readonly proxies: Record<string, string>,
    private readonly records: ScreenshotRecords,
    private readonly log: Logger,
  ) {}

  /** Throws 503/429 when the farm cannot take these jobs; otherwise says how each would be routed. */
  async plan(specs: CaptureSpec[]): Promise<Route[]> {
    if (specs.length === 0) return [];
    const nodes: NodeStatus[] = await this.admission.admit(
      specs.map((s) => s.browser),
      specs.length,
    );
    return specs.map((s) => routeJob(s.country, s.browser, nodes, this.proxies));
  }

  /**
   * Enqueues the jobs. A record whose job could not be queued ends `error` (NOT_QUEUED), so none is left
   * waiting for a job that does not exist; returns their ids.
   */
  async dispatch(work: FarmWork[], bulk = false): Promise<number[]> {
    const failed: number[] = [];
    const enqueueOne = async (w: FarmWork): Promise<void> => {
      const tier: QueueTier = bulk ? 'bulk' : w.priority >= HIGH_PRIORITY_THRESHOLD ? 'high' : 'normal';
      const job: CaptureJob = {
        spec: { ...w.spec, id: w.id },
        tier,
        companyId: w.companyId,
        egressCountry: w.route.egressCountry,
        proxy: w.route.proxy,
        enqueuedAt: Date.now(),
        ...(w.requestId ? { requestId: w.requestId } : {}),
      };
      try {
        await this.queue.enqueue(job);
      } catch (err) {
        this.log.error({ err, id: w.id }, 'could not queue a capture job');
        failed.push(w.id);
      }
    };
    // A batch's jobs go ENQUEUE_AT_ONCE at a time: on JetStream an enqueue is three round trips, and one after
    // the other a 1,000-URL batch took 38.8 s to queue at load 33, 16 at a time 9.1 s at load 24 (test/integration/agent-autoscaling.test.ts).
    // Jobs of one lane may reach the stream in a slightly different order than their ids; nothing reads them by order.
    let next = 0;
    const lane = async (): Promise<void> => {
      while (next < work.length) await enqueueOne(work[next++] as FarmWork);
    };
    await Promise.all(Array.from({ length: Math.min(ENQUEUE_AT_ONCE, work.length) }, lane));
    await this.records.endWithError(
      failed.sort((a, b) => a - b),
      NOT_QUEUED,
      'not_queued',
    );
    return failed;
  }

  /**
   * Withdraws the jobs of deleted records (issue 25): a queued one is dropped, a running one aborted where it
   * runs, so no browser time goes to a record that no longer exists. The records are gone already; should
   * the queue not answer, a job runs to its end and its result finds no record (its files are deleted then).
   */
  async withdraw(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await this.queue.withdraw(ids).catch((err: unknown) => this.log.warn({ err, ids }, 'could not withdraw the jobs of deleted screenshots; they run to their end'));
  }
}

export const queueUnavailable = (): Error => serviceUnavailable('The job queue is unavailable; try again shortly');
